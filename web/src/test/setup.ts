import { afterEach, beforeAll } from 'vitest';
import { cleanup, configure } from '@testing-library/react';
import { forgetLanguageChoice, loadJourneyMessages, setLanguage } from '@/lib/i18n';

// findBy… and waitFor wait up to 5 s, not the library's 1 s: a lazy route's
// first import is compiled on demand, which on a loaded two-core CI machine
// (the Go tests and the browser tests run beside these) has taken over a
// second. A screen that never comes still fails, only later.
configure({ asyncUtilTimeout: 5000 });

// The screens' tests run in happy-dom (vite.config.ts), which has no print
// dialog: a browser's window.print, for the tests that spy on it.
if (typeof window !== 'undefined' && typeof window.print !== 'function') {
  Object.defineProperty(window, 'print', { value: () => undefined, writable: true, configurable: true });
}

// Tests render screens without their lazy routes: every English message is there from the start.
beforeAll(() => loadJourneyMessages());

// Each test starts in English with no language chosen; a test that switches to Spanish does not leak it.
afterEach(async () => {
  cleanup();
  forgetLanguageChoice();
  await setLanguage('en');
});
