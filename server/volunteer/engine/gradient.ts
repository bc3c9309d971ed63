// The check lives in common/ because the console runs it too (live warnings in the plan editor).
export { checkGradient } from '../../../common/volunteer/gradient.js';
