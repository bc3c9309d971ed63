import type { BaseKey } from '@refinedev/core';
import { Divider, Spin } from 'antd';
import { lazy, Suspense } from 'react';
import { getResourceDef } from '../../../resources.config';
import type { ResourceDef } from '../resource';

// Lazily: the list page itself opens show pages, so a static import would be circular.
const EntityList = lazy(() => import('./EntityList'));

/**
 * x-children on the show page: for each declared child schema, its generic list limited to the rows that point at
 * this record (课堂 → 课程视频, 反馈 → 回复), with 新增 pre-filled with the link. Buttons follow the child's own
 * permissions.
 */
export function ChildRows({ resource: def, id }: { resource: ResourceDef; id: BaseKey }) {
  const children = def.schema['x-children'] ?? [];
  return (
    <>
      {children.map((c) => {
        const child = getResourceDef(c.schema);
        if (!child) return null;
        const link = { [c.foreignKey]: Number(id) };
        return (
          <section key={c.schema} data-children={c.schema}>
            <Divider orientation="start">{c.title ?? child.title}</Divider>
            <Suspense fallback={<Spin />}>
              <EntityList resource={child} initialSearch={link} formDefaults={link} />
            </Suspense>
          </section>
        );
      })}
    </>
  );
}
