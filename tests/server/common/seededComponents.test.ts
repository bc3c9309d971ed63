import { describe, expect, it } from 'vitest';
import { SEEDED_COMPONENTS } from '../../../common/menu/seededComponents';
import type { MenuSeed } from '../../../server/db/seed/menus';
import { seededMenus } from '../../../server/db/seed/schemaMenus';

const seeded = (items: MenuSeed[]): string[] => items.flatMap((m) => [...(m.component ? [m.component] : []), ...seeded(m.children ?? [])]);

describe('common/menu/seededComponents', () => {
  it('lists exactly the view paths of the seeded menu, so the console tells 建设中 from 页面不存在 as the server seeds it', () => {
    expect([...SEEDED_COMPONENTS].sort()).toEqual([...new Set(seeded(seededMenus()))].sort());
  });
});
