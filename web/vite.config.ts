/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath, URL } from 'node:url';
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { gzipSync, brotliCompressSync, constants as zc } from 'node:zlib';
import path from 'node:path';
import type { Plugin } from 'vite';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

/**
 * precompress writes .gz and .br beside every text asset of the build, so the
 * Go server can answer Accept-Encoding without compressing at run time.
 */
function precompress(): Plugin {
  return {
    name: 'chairside-precompress',
    apply: 'build',
    closeBundle() {
      const root = fileURLToPath(new URL('./dist', import.meta.url));
      const walk = (dir: string): string[] =>
        readdirSync(dir).flatMap((n) => {
          const p = path.join(dir, n);
          return statSync(p).isDirectory() ? walk(p) : [p];
        });
      for (const file of walk(root)) {
        if (!/\.(js|css|html|svg|json|txt|ico)$/.test(file) || file.includes('.vite')) continue;
        const buf = readFileSync(file);
        if (buf.length < 1024) continue;
        writeFileSync(file + '.gz', gzipSync(buf, { level: 9 }));
        writeFileSync(file + '.br', brotliCompressSync(buf, { params: { [zc.BROTLI_PARAM_QUALITY]: 11 } }));
      }
    },
  };
}

// The built app is embedded in the Go binary (web/dist), so the manifest is kept
// for scripts/js-size.mjs, and no inline script or style is ever emitted (strict CSP).
export default defineConfig({
  plugins: [react(), precompress()],
  define: { __APP_VERSION__: JSON.stringify(`${pkg.version}`) },
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  build: {
    outDir: 'dist',
    manifest: true,
    sourcemap: false,
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    target: 'es2022',
  },
  server: {
    port: 5173,
    proxy: { '/api': 'http://127.0.0.1:8080' },
  },
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    exclude: ['e2e/**', 'node_modules/**', 'dist/**'],
    setupFiles: ['src/test/setup.ts'],
    // Room for the 5 s waits of src/test/setup.ts, several to a test, on a
    // loaded machine; a test that hangs still fails.
    testTimeout: 20_000,
  },
});
