import { afterEach, beforeAll } from 'vitest';
import { cleanup } from '@testing-library/react';
import { forgetLanguageChoice, loadJourneyMessages, setLanguage } from '@/lib/i18n';

// Tests render screens without their lazy routes: every English message is there from the start.
beforeAll(() => loadJourneyMessages());

// Each test starts in English with no language chosen; a test that switches to Spanish does not leak it.
afterEach(async () => {
  cleanup();
  forgetLanguageChoice();
  await setLanguage('en');
});
