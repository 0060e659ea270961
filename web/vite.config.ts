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

/**
 * ENTRY_PAGES: the route families a patient lands on from outside (a link, a
 * QR code) and the lazy modules their first screens need. For each, the
 * build writes <name>.html: index.html with those modules' chunks named as
 * module preloads, so the browser fetches them beside the entry chunk
 * instead of one round trip after it. The server answers /<name>/… with that
 * page (httpapi/web.go); docs/performance.md, "The application screen".
 */
const ENTRY_PAGES: Record<string, string[]> = {
  // /start/entity-keys/… and /start/tokens/…: the start screen, then the application form in English.
  start: ['src/features/start/StartPage.tsx', 'src/features/application/ApplicationPage.tsx', 'src/locales/en/journey.ts'],
};

interface ManifestChunk {
  file: string;
  imports?: string[];
  css?: string[];
}

/** entryPages writes ENTRY_PAGES' pages from the built index.html and Vite's manifest. */
function entryPages(): Plugin {
  return {
    name: 'chairside-entry-pages',
    apply: 'build',
    writeBundle(options) {
      const dir = options.dir ?? fileURLToPath(new URL('./dist', import.meta.url));
      const manifest = JSON.parse(readFileSync(path.join(dir, '.vite/manifest.json'), 'utf8')) as Record<string, ManifestChunk>;
      const index = readFileSync(path.join(dir, 'index.html'), 'utf8');
      const closure = (keys: string[]): Set<string> => {
        const seen = new Set<string>();
        const walk = (key: string) => {
          if (seen.has(key) || !manifest[key]) return;
          seen.add(key);
          manifest[key].imports?.forEach(walk);
        };
        keys.forEach(walk);
        return seen;
      };
      const shell = closure(['index.html']);
      for (const [name, modules] of Object.entries(ENTRY_PAGES)) {
        const links: string[] = [];
        for (const key of closure(modules)) {
          if (shell.has(key)) continue;
          const chunk = manifest[key];
          if (!chunk) throw new Error(`entry page ${name}: ${key} is not in the build`);
          links.push(`<link rel="modulepreload" crossorigin href="/${chunk.file}">`);
          for (const css of chunk.css ?? []) links.push(`<link rel="stylesheet" crossorigin href="/${css}">`);
        }
        for (const key of modules) if (!manifest[key]) throw new Error(`entry page ${name}: ${key} is not in the build`);
        writeFileSync(path.join(dir, `${name}.html`), index.replace('</head>', `  ${links.join('\n    ')}\n  </head>`));
      }
    },
  };
}

// The built app is embedded in the Go binary (web/dist), so the manifest is kept
// for scripts/js-size.mjs, and no inline script or style is ever emitted (strict CSP).
export default defineConfig({
  plugins: [react(), entryPages(), precompress()],
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
