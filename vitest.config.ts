import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  plugins: [react()],
  resolve: { alias: { '@': new URL('./src', import.meta.url).pathname, '@common': new URL('./common', import.meta.url).pathname } },
  test: {
    // Two copies of react-router load unless Refine is bundled through vite (DEVELOPERS.md).
    server: { deps: { inline: [/@refinedev\//] } },
    /**
     * One error is not a test's: React's scheduler running a slice it queued (a passive-effect flush after a commit)
     * after the file's jsdom environment closed, where it reads `window.event` — `window is not defined` from
     * react-dom's scheduled task, with every test of the file already finished and passed. tests/unit/setup.ts drains
     * requests, antd's static toasts and React's task queue at the end of each file, which made it rare; on a loaded
     * 2-core machine a slice can still be queued between that drain and the teardown. Only that exact error, thrown
     * from React's scheduler, is dropped; any other unhandled error still fails the run.
     */
    onUnhandledError(error) {
      const e = error as Error & { stacks?: Array<{ file?: string; method?: string }> };
      const where = `${e.stack ?? ''}\n${(e.stacks ?? []).map((f) => `${f.file ?? ''} ${f.method ?? ''}`).join('\n')}`;
      const fromReactScheduler = /react-dom/.test(where) && /scheduler|performWorkUntilDeadline/.test(where);
      return !(e.name === 'ReferenceError' && e.message === 'window is not defined' && fromReactScheduler);
    },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          environment: 'jsdom',
          include: ['tests/unit/**/*.test.{ts,tsx}'],
          setupFiles: ['tests/unit/setup.ts'],
          // Interaction tests in jsdom (typing, several renders) take 1–2 s alone and more on a busy 2-core machine.
          testTimeout: 20000,
        },
      },
      {
        extends: true,
        test: {
          name: 'server',
          environment: 'node',
          include: ['tests/server/**/*.test.ts'],
          // Several tests start a server of their own (migrations, schema sync, seed): on a busy 2-core machine that
          // alone took over 30 s. A hung test still fails, a minute later.
          testTimeout: 60000,
          hookTimeout: 120000,
          // One file at a time: each builds its own server and database; PostgreSQL runs share one cluster.
          fileParallelism: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'browser',
          environment: 'node',
          include: ['tests/browser/**/*.test.ts'],
          // Starts the real server on the built console (dist/) with a temporary data dir.
          globalSetup: ['tests/browser/globalSetup.ts'],
          testTimeout: 60000,
          hookTimeout: 60000,
          // A real browser on a busy 2-core CI machine: a lazily loaded page can take more than the default 1 s to
          // show after a click, so polled assertions wait up to 10 s (they still fail when the state never comes).
          expect: { poll: { timeout: 10000, interval: 100 } },
          // One more try for a browser test that fails on a loaded machine; a test failing twice still fails CI.
          // Each retry is printed by the reporter — a retried test is a race to find (the logout one was real).
          retry: 1,
          fileParallelism: false,
        },
      },
    ],
  },
});
