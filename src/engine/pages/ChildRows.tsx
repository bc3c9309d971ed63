import type { BaseKey } from '@refinedev/core';
import { Divider, Spin } from 'antd';
import { type ComponentType, Suspense } from 'react';
import { useResourceRegistry } from '../registry';
import type { ResourceDef } from '../resource';

/** The list page, handed in by whoever shows the record (the list page itself): no import back to it, no circle. */
export type ChildList = ComponentType<{ resource: ResourceDef; initialSearch?: Record<string, unknown>; formDefaults?: Record<string, unknown> }>;

/**
 * x-children on the show page: for each declared child schema, its generic list limited to the rows that point at
 * this record (课堂 → 课程视频, 反馈 → 回复), with 新增 pre-filled with the link. Buttons follow the child's own
 * permissions.
 */
export function ChildRows({ resource: def, id, List }: { resource: ResourceDef; id: BaseKey; List: ChildList }) {
  const children = def.schema['x-children'] ?? [];
  const registry = useResourceRegistry();
  return (
    <>
      {children.map((c) => {
        const child = registry.get(c.schema);
        if (!child) return null;
        const link = { [c.foreignKey]: Number(id) };
        return (
          <section key={c.schema} data-children={c.schema}>
            <Divider orientation="start">{c.title ?? child.title}</Divider>
            <Suspense fallback={<Spin />}>
              <List resource={child} initialSearch={link} formDefaults={link} />
            </Suspense>
          </section>
        );
      })}
    </>
  );
}
