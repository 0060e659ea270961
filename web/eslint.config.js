// ESLint for the web app (flat config): TypeScript, the React hooks rules,
// no import cycles, and the import boundaries of the layout in README.md:
// a feature imports shared code only (never another feature, never `app`);
// shared code (components, flow, lib, stores, test) never imports a feature
// or `app`. Every word a patient sees comes from the message catalogues
// (docs/languages.md): JSX text and the attributes a person reads or hears may
// not be literals. `npm run lint` runs this with tsc, Prettier and the
// contract checks.
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { importX } from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import i18next from 'eslint-plugin-i18next';

// import-x's TypeScript settings (extensions, parsers), with the resolver that knows tsconfig's `@/` paths.
const { 'import-x/resolver': _legacyResolver, ...importSettings } = importX.flatConfigs.typescript.settings;
const here = fileURLToPath(new URL('.', import.meta.url));
const features = readdirSync(new URL('./src/features', import.meta.url), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);
const SHARED = ['components', 'flow', 'lib', 'stores', 'test'];

/** The zones of import-x/no-restricted-paths: who may not import whom. */
const boundaries = [
  // A feature may import neither another feature nor the app.
  ...features.map((name) => ({
    target: `./src/features/${name}`,
    from: './src/features',
    except: [`./${name}`],
    message: 'A feature imports shared code only; the app composes features (src/app).',
  })),
  { target: './src/features', from: './src/app', message: 'A feature may not import the app.' },
  // Shared code stays below the features and the app.
  ...SHARED.map((dir) => ({
    target: `./src/${dir}`,
    from: ['./src/features', './src/app'],
    message: 'Shared code may not import a feature or the app.',
  })),
];

/** The attributes whose words a person reads or hears: each must come from t(). */
const TEXT_ATTRIBUTES = [
  'aria-label',
  'aria-roledescription',
  'aria-valuetext',
  'alt',
  'title',
  'placeholder',
  'label',
  'hint',
  'description',
  'legend',
  'heading',
  'message',
  'lead',
  'closeLabel',
  'boxLabel',
  'button',
];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'test-results/**', 'perf/**', 'public/**', 'src/lib/api/schema.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx,js,mjs,mts}'],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: 'module',
      globals: { ...globals.browser, ...globals.node },
    },
    plugins: { 'import-x': importX, 'react-hooks': reactHooks },
    settings: {
      ...importSettings,
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: `${here}tsconfig.json` })],
    },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      'import-x/no-cycle': 'error',
      'import-x/no-self-import': 'error',
      'import-x/no-restricted-paths': ['error', { basePath: here, zones: boundaries }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
    },
  },
  {
    // The patient's screens speak through t(); the office's screens are for staff and stay in English.
    files: ['src/**/*.tsx'],
    ignores: ['src/**/*.test.tsx', 'src/test/**', 'src/features/office/**', 'src/app/routes.office.test.tsx'],
    plugins: { i18next },
    rules: {
      'i18next/no-literal-string': [
        'error',
        {
          mode: 'jsx-only',
          'jsx-attributes': { include: TEXT_ATTRIBUTES },
          words: { exclude: ['[0-9!-/:-@[-`{-~\\s]+', '^[\\s—–…✓·•“”’]+$', '[A-Z_-]+', '^\\p{Emoji}+$', 'Chairside', 'English', 'Español'] },
        },
      ],
    },
  },
);
