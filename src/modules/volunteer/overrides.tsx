import type { ResourceOverride } from '@/engine/resource';
import { studentOverride } from './students/override';

/**
 * The volunteer module's overrides of its generic screens by schema $id, found by src/resources/ (every overrides.tsx
 * under src/modules/): 学生志愿 (schemas/volunteer/vol_student.json). The approval screens keep theirs in
 * approval/overrides.tsx.
 */
export const overrides: Record<string, ResourceOverride> = {
  vol_student: studentOverride,
};
