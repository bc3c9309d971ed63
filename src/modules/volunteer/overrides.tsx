import type { ResourceOverride } from '@/engine/resource';
import { savedPlanOverride, studentOverride } from './students/override';

/**
 * The volunteer module's overrides of its generic screens by schema $id, found by src/resources/ (every overrides.tsx
 * under src/modules/): 学生志愿 and 志愿保存 (schemas/volunteer/vol_student.json, vol_saved_plan.json). The approval screens keep theirs in
 * approval/overrides.tsx.
 */
export const overrides: Record<string, ResourceOverride> = {
  vol_student: studentOverride,
  vol_saved_plan: savedPlanOverride,
};
