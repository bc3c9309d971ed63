import { SEEDED_COMPONENTS } from '@common/menu/seededComponents';
import { describe, expect, it } from 'vitest';
import { resourceForComponent } from '@/resources';
import { isHandWritten } from '@/router/componentRegistry';

/**
 * How many of the product's seeded menu screens render from schemas: a seeded component string whose schema the
 * console's registry knows (x-menu.component or an override alias) and that no bespoke page in VIEWS overrides.
 */

// issue 26 acceptance: ≥ 68 of the seeded screens (73 since 账户余额, 收款钱包, 付款钱包 and 志愿保存 became schemas)
const FLOOR = 73;

describe('seeded menu screens rendered from schemas', () => {
  it(`at least ${FLOOR} of the seeded screens come from schemas`, () => {
    const fromSchema = SEEDED_COMPONENTS.filter((c) => resourceForComponent(c) !== undefined && !isHandWritten(c));
    const handWritten = SEEDED_COMPONENTS.filter((c) => !fromSchema.includes(c));
    console.info(
      `schema screens: ${fromSchema.length} of ${SEEDED_COMPONENTS.length} seeded screens; hand-written (${handWritten.length}):\n  ${handWritten.join('\n  ')}`,
    );
    expect(fromSchema.length).toBeGreaterThanOrEqual(FLOOR);
    // Every screen is one or the other.
    expect(fromSchema.length + handWritten.length).toBe(SEEDED_COMPONENTS.length);
  });
});
