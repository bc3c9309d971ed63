import type { EntitySchema } from '@common/engine/types';
import { describe, expect, it } from 'vitest';
import { createResourceRegistry } from '@/engine/registry';
import { overrides, registry, schemas } from '@/resources';
import supplier from '../../fixtures/demo_supplier.json';

/**
 * The registry the engine looks resources up in (issue 26): the built schemas with their overrides, plus the schemas
 * a console build lacks, added at sign-in with the generic pages — a built one is never replaced.
 */
describe('the resource registry', () => {
  it('adds a schema the build lacks and opens it for its menu component string; a built schema stays as built', () => {
    const r = createResourceRegistry(schemas, overrides);
    expect(r.forComponent('demo/supplier/index')).toBeUndefined();
    const changedConfig = { ...(r.get('sys_config')?.schema as EntitySchema), title: '改过的参数设置' };
    expect(r.add([supplier as unknown as EntitySchema, changedConfig])).toBe(true);
    expect(r.forComponent('/demo/supplier/index.vue')).toMatchObject({ name: 'demo_supplier', title: '供应商', listPath: '/system/supplier' });
    expect(r.get('demo_supplier')?.permissions.add).toBe('demo:supplier:add');
    expect(r.get('sys_config')?.title).toBe('参数设置');
    expect(r.refineResources().map((x) => x.name)).toContain('demo_supplier');
    expect(r.add([supplier as unknown as EntitySchema])).toBe(false);
  });

  it('gives every module override found by convention to its schema', () => {
    expect(registry.get('sys_user')?.override.pages?.list).toBeTypeOf('function');
    expect(registry.get('sys_job_log')?.override).toBe(overrides.sys_job_log);
    expect(registry.get('sys_dict_data')?.components).toContain('system/dict/data');
  });
});
