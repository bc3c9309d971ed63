import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  plugins: [react()],
  resolve: { alias: { '@': new URL('./src', import.meta.url).pathname, '@common': new URL('./common', import.meta.url).pathname } },
  test: {
    // Two copies of react-router load unless Refine is bundled through vite (DEVELOPERS.md).
    server: { deps: { inline: [/@refinedev\//] } },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          environment: 'jsdom',
          include: ['tests/unit/**/*.test.{ts,tsx}'],
          // settle.ts first: its counters of requests and timers must be in place before React, antd and the
          // console's axios client are loaded (setup.ts and the tests share that one module).
          setupFiles: ['tests/unit/settle.ts', 'tests/unit/setup.ts'],
          // Hang guards only. Tests wait on conditions (findBy… / waitFor up to 30 s each, tests/unit/setup.ts); the
          // slowest take about 3 s alone and at most 14 s measured with two copies of the suite on a busy 2-core
          // machine. The hooks wait (up to 20 s) for what a test left running before the next test or teardown.
          testTimeout: 90000,
          hookTimeout: 60000,
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
