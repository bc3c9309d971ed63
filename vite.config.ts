import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompress } from './scripts/precompress-plugin';

const server = process.env.API_TARGET ?? 'http://127.0.0.1:8080';
/** Build publish time, compared with the server's for the stale-version reload (spec §4). */
const publishTime = new Date().toISOString();

export default defineConfig({
  plugins: [
    react(),
    // The build being replaced (scripts/build.mjs builds into a temporary folder and swaps it in): unchanged assets
    // keep their compressed copies instead of being compressed again.
    precompress({ previousBuild: path.resolve(fileURLToPath(new URL('.', import.meta.url)), process.env.STATIC_DIR || 'dist') }),
    // The server reads the build's publish time from dist/publish-time.txt and hands it out in the publishtime
    // cookie, so a page built earlier notices that a newer console is being served (spec §4 stale-version reload).
    {
      name: 'publish-time',
      apply: 'build',
      generateBundle() {
        this.emitFile({ type: 'asset', fileName: 'publish-time.txt', source: publishTime });
      },
    },
  ],
  resolve: { alias: { '@': new URL('./src', import.meta.url).pathname, '@common': new URL('./common', import.meta.url).pathname } },
  define: { __APP_PUBLISH_TIME__: JSON.stringify(publishTime), __APP_VERSION__: JSON.stringify('2.0.4') },
  server: {
    port: 5173,
    // In development the console runs on Vite and talks to the reference server on :8080.
    proxy: {
      '/dev-api': server,
      '/appv2': server,
      '/app-config.js': server,
      '/toolbox': server,
      '/profile': server,
      '/site': server,
      '/pay': server,
      '/share': server,
    },
  },
  build: {
    outDir: 'dist',
    chunkSizeWarningLimit: 1000,
  },
});
