import type { ResourceOverride } from '@/engine/resource';
import { appraisalOverride } from './appraisal/override';
import { clientOverride } from './clientData/override';
import { memoOverride } from './memo/override';
import { messageOverride } from './message/override';
import { batchOverride } from './record/override';
import { cardOverride } from './two/override';
import { customerOverride, recycleOverride } from './userList/override';

/**
 * The customer module's overrides of its generic screens (schemas/customer/), by schema $id, found by src/resources/
 * (every overrides.tsx under src/modules/). Each screen keeps its bespoke bits in its own folder (`<screen>/override.tsx`).
 */
export const overrides: Record<string, ResourceOverride> = {
  cus_memo: memoOverride,
  cus_message: messageOverride,
  cus_appraisal: appraisalOverride,
  card_batch: batchOverride,
  card: cardOverride,
  cus_customer: customerOverride,
  cus_recycle: recycleOverride,
  cus_client: clientOverride,
};
