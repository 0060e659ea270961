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
        if (!/\.(js|css|html|svg|json|txt|ico)$/.test(file)) continue;
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
  // /start/entity-keys/… and /start/tokens/…: the start screen, then the application form in English, and the
  // lender's routes the form's path is found among (src/app/routes.tsx, addLenderRoutes).
  start: [
    'src/features/start/StartPage.tsx',
    'src/features/application/ApplicationPage.tsx',
    'src/locales/en/form.ts',
    'src/app/lenderRoutes.tsx',
  ],
};

/** reachable answers every node from starts by next, without entering skip: the module and chunk graphs alike. */
function reachable(starts: string[], next: (node: string) => readonly string[] | undefined, skip: ReadonlySet<string> = new Set()): Set<string> {
  const seen = new Set<string>();
  const walk = (node: string) => {
    if (seen.has(node) || skip.has(node)) return;
    seen.add(node);
    next(node)?.forEach(walk);
  };
  starts.forEach(walk);
  return seen;
}

/** preloadLater names a chunk of the app's code a page fetches at once, at low priority (codeAfterPaint). */
const preloadLater = (file: string) => `<link rel="modulepreload" crossorigin fetchpriority="low" href="/${file}">`;

/**
 * codeAfterPaint asks for the app's code at low priority on every page: the
 * page's own top bar and its stylesheet are what the first paint needs, so
 * they come first and paint while the code is still arriving, instead of
 * sharing a phone's bandwidth with it (docs/performance.md, "The
 * application screen"). The code is still asked for at once.
 */
function codeAfterPaint(): Plugin {
  return {
    name: 'chairside-code-after-paint',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler: (html) => {
        const out = html
          .replace(/<script type="module" crossorigin src=/g, '<script type="module" crossorigin fetchpriority="low" src=')
          .replace(/<link rel="modulepreload" crossorigin href="\/([^"]+)">/g, (_m, file: string) => preloadLater(file));
        if (!out.includes('fetchpriority="low" src=')) throw new Error("code after paint: the page's script is not where it was");
        return out;
      },
    },
  };
}

/** entryPages writes ENTRY_PAGES' pages from the built index.html and the bundle's chunks. */
function entryPages(): Plugin {
  const root = fileURLToPath(new URL('./', import.meta.url));
  return {
    name: 'chairside-entry-pages',
    apply: 'build',
    writeBundle(options, bundle) {
      const dir = options.dir ?? fileURLToPath(new URL('./dist', import.meta.url));
      const chunks = Object.values(bundle).filter((c) => c.type === 'chunk');
      const byFile = new Map(chunks.map((c) => [c.fileName, c]));
      const closure = (files: string[]) => reachable(files, (file) => byFile.get(file)?.imports);
      const isEarly = (c: (typeof chunks)[number]) => c.facadeModuleId === path.join(root, EARLY);
      const shell = closure(chunks.filter((c) => c.isEntry && !isEarly(c)).map((c) => c.fileName));
      const early = chunks.find(isEarly);
      if (!early) throw new Error(`entry pages: ${EARLY} is not in the build`);
      const index = readFileSync(path.join(dir, 'index.html'), 'utf8');
      for (const [name, modules] of Object.entries(ENTRY_PAGES)) {
        const files = modules.map((m) => {
          const chunk = chunks.find((c) => c.moduleIds.includes(path.join(root, m)));
          if (!chunk) throw new Error(`entry page ${name}: ${m} is not in the build`);
          return chunk.fileName;
        });
        // The early start goes first, and runs as soon as it has arrived (async): its call then leaves while the rest downloads.
        // It and what it imports come at the browser's usual priority, ahead of the app's code (codeAfterPaint).
        const first = [`<script type="module" async crossorigin src="/${early.fileName}"></script>`];
        const earlyFiles = [...closure([early.fileName])].filter((file) => file !== early.fileName);
        first.push(...earlyFiles.map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`));
        // What the early start shares with the app is named once, up front.
        let page = index
          .split('\n')
          .filter((line) => !earlyFiles.some((file) => line.trim() === preloadLater(file)))
          .join('\n');
        const links: string[] = [];
        for (const file of closure(files)) {
          if (shell.has(file) || earlyFiles.includes(file)) continue;
          links.push(preloadLater(file));
          for (const css of byFile.get(file)?.viteMetadata?.importedCss ?? []) links.push(`<link rel="stylesheet" crossorigin href="/${css}">`);
        }
        page = page.replace(/(\s*)<script type="module"/, (m, space: string) => `${space}${first.join(space)}${m}`);
        writeFileSync(path.join(dir, `${name}.html`), page.replace('</head>', `  ${links.join('\n    ')}\n  </head>`));
      }
    },
  };
}

/** COMPILE_HINT: V8's magic comment that has every function of a script compiled as the script arrives. */
const COMPILE_HINT = '//# allFunctionsCalledOnLoad';

/**
 * compileHints marks the chunks a first visit runs at once (the first
 * route's, the early start's and ENTRY_PAGES' first screens) with
 * COMPILE_HINT. Without it V8 compiles a function on the main thread the
 * first time it is called, and on a first visit most functions of React
 * DOM, the router and the first screens are called within the first
 * second. With it V8 compiles them while the script streams in, off the
 * main thread: the first load's main-thread time was about a tenth less
 * (docs/performance.md, "The application screen"). Chunks of later
 * screens are left to compile lazily.
 */
function compileHints(): Plugin {
  const root = fileURLToPath(new URL('./', import.meta.url));
  return {
    name: 'chairside-compile-hints',
    apply: 'build',
    generateBundle: {
      // After Vite's own additions to the chunks, so the comment is the first line.
      order: 'post',
      handler(_options, bundle) {
        const chunks = Object.values(bundle).filter((c) => c.type === 'chunk');
        const byFile = new Map(chunks.map((c) => [c.fileName, c]));
        const firstScreens = Object.values(ENTRY_PAGES)
          .flat()
          .map((m) => chunks.find((c) => c.moduleIds.includes(path.join(root, m)))?.fileName)
          .filter((file): file is string => file !== undefined);
        const starts = [...chunks.filter((c) => c.isEntry).map((c) => c.fileName), ...firstScreens];
        for (const file of reachable(starts, (f) => byFile.get(f)?.imports)) {
          const chunk = byFile.get(file);
          if (chunk && !chunk.code.startsWith(COMPILE_HINT)) chunk.code = `${COMPILE_HINT}\n${chunk.code}`;
        }
      },
    },
  };
}

/** EARLY: the early start's script, an entry of its own that only the ENTRY_PAGES load first (lib/api/early.ts). */
const EARLY = 'src/early.ts';

/** FIRST_WORDS: what the early start draws before the app (lib/firstWords.ts), a chunk of its own (landingChunks). */
const FIRST_WORDS = 'src/lib/firstWords.ts';

/** LATER_SHARED: where the helpers shared by screens after the form live (landingChunks, the later chunk). */
const LATER_SHARED = /[\\/]src[\\/](lib|flow)[\\/]/;

type Group = { name: string; test: (id: string) => boolean; includeDependenciesRecursively: false; minShareCount?: number };

/**
 * landingChunks puts, for each of ENTRY_PAGES, the code its first screens
 * need beyond the first route into one chunk of its own, where the bundler
 * would otherwise cut it into a dozen small shared ones: on a phone network
 * each file costs a connection's round trip, and the browser opens only a
 * few at once. What the first route loads stays out, so it carries none of
 * this; a later screen that shares a module loads the chunk, which the
 * patient who came through the form already has.
 *
 * For the same reason the helpers that several later screens share (the
 * decision routing, the time-out, the finish, the lender steps …: shared
 * code under src/lib and src/flow that neither the first route nor a
 * landing page loads) make one chunk, "later", instead of one small file
 * each. The session's time-out needs it, so it arrives while the patient
 * fills in the form (once the form has painted, src/app/useAfterPaint.ts),
 * before the screens after it.
 */
function landingChunks(): { plugin: Plugin; groups: Group[] } {
  const members = new Map<string, Set<string>>();
  const root = fileURLToPath(new URL('./', import.meta.url));
  const plugin: Plugin = {
    name: 'chairside-landing-chunks',
    apply: 'build',
    buildEnd() {
      const reach = (from: string[], skip?: Set<string>) => reachable(from, (id) => this.getModuleInfo(id)?.importedIds, skip);
      const entry = [...this.getModuleIds()].find((id) => this.getModuleInfo(id)?.isEntry && id !== path.join(root, EARLY));
      // What the early start imports (the app imports some of it too) is one small chunk, so it never waits for the app's;
      // but what only its first words need (lib/firstWords.ts) is one of its own, which the first route does not load.
      const first = reach(entry ? [entry] : []);
      const words = new Set([...reach([path.join(root, FIRST_WORDS)])].filter((id) => !first.has(id)));
      const early = new Set([...reach([path.join(root, EARLY)])].filter((id) => !words.has(id)));
      early.delete(path.join(root, EARLY));
      members.set('early', early);
      members.set('first-words', words);
      const taken = reach(entry ? [entry] : [], early);
      [...early, ...words].forEach((id) => taken.add(id));
      for (const [name, modules] of Object.entries(ENTRY_PAGES)) {
        modules.forEach((m, i) => {
          const mine = reach([path.join(root, m)], taken);
          mine.forEach((id) => taken.add(id));
          members.set(`${name}-${i + 1}`, mine);
        });
      }
      members.set('later', new Set([...this.getModuleIds()].filter((id) => !taken.has(id) && LATER_SHARED.test(id))));
    },
  };
  const group = (name: string): Group => ({ name, test: (id) => members.get(name)?.has(id) ?? false, includeDependenciesRecursively: false });
  const groups = [
    group('early'),
    group('first-words'),
    ...Object.entries(ENTRY_PAGES).flatMap(([name, modules]) => modules.map((_, i) => group(`${name}-${i + 1}`))),
  ];
  // Only what two chunks or more would share: a helper of one screen stays with it.
  groups.push({ ...group('later'), minShareCount: 2 });
  return { plugin, groups };
}
const landing = landingChunks();

// The built app is embedded in the Go binary (web/dist): no inline script or
// style is ever emitted (strict CSP).
/**
 * REACT_ROUTER_PRODUCTION is React Router's build without its checks and
 * warnings for developers. Its package names only that one in its exports,
 * so a build would otherwise ship the developers' one: 0.6 KB gzip more of
 * the first route (docs/performance.md, "The first route's budget").
 */
const REACT_ROUTER_PRODUCTION = fileURLToPath(new URL('./node_modules/react-router/dist/production/index.mjs', import.meta.url));

export default defineConfig(({ command }) => ({
  plugins: [react(), landing.plugin, codeAfterPaint(), entryPages(), compileHints(), precompress()],
  define: { __APP_VERSION__: JSON.stringify(`${pkg.version}`) },
  resolve: {
    alias: {
      '@': fileURLToPath(new URL('./src', import.meta.url)),
      // Only in a build: the dev server and the tests keep the warnings.
      ...(command === 'build' ? { 'react-router': REACT_ROUTER_PRODUCTION } : {}),
    },
  },
  build: {
    outDir: 'dist',
    sourcemap: false,
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    target: 'es2022',
    rolldownOptions: {
      input: { index: fileURLToPath(new URL('./index.html', import.meta.url)), early: fileURLToPath(new URL(`./${EARLY}`, import.meta.url)) },
      output: { codeSplitting: { groups: landing.groups } },
    },
  },
  server: {
    port: 5173,
    proxy: { '/api': 'http://127.0.0.1:8080' },
  },
  test: {
    exclude: ['e2e/**', 'node_modules/**', 'dist/**'],
    setupFiles: ['src/test/setup.ts'],
    // Room for the 5 s waits of src/test/setup.ts, several to a test, on a
    // loaded machine; a test that hangs still fails.
    testTimeout: 20_000,
    // Two workers on two cores: the browser tests beside them mostly wait
    // (scripts/test.sh), and Vitest's default would leave one core to them.
    maxWorkers: 2,
    // Each test file in a fresh VM context of a long-lived worker rather
    // than a fresh process: every file still gets its own globals and
    // modules, and the suite took 63 CPU seconds instead of 177 (37 s
    // instead of 95 alone; docs/testing.md).
    pool: 'vmThreads',
    // A browser's document costs every file that has one: only the screens'
    // tests (*.test.tsx) get it, from happy-dom, which sets up in half the
    // time jsdom took (docs/testing.md). Logic tests (*.test.ts) run in
    // plain Node; one that needs a document says so with a
    // `@vitest-environment happy-dom` comment at its top.
    projects: [
      { extends: true, test: { name: 'logic', environment: 'node', include: ['src/**/*.test.ts'] } },
      { extends: true, test: { name: 'screens', environment: 'happy-dom', include: ['src/**/*.test.tsx'] } },
    ],
  },
}));
