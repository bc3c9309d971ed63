/**
 * The console's FeedbackBridge (src/components/FeedbackBridge.tsx), for the unit tests: render it first inside
 * ../render.tsx's TestApp, so the http layer's toasts render inside the tree and cleanup() removes them with it
 * (antd's static ones live in a React root of their own that outlives the test).
 */
export { FeedbackBridge } from '@/components/FeedbackBridge';
