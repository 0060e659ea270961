import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { createAppRouter, type AppRouter } from './app/router';
import { preferredLanguage, setLanguage } from './lib/i18n';
import { yieldToMain } from './lib/yieldToMain';
import './styles.css';

/**
 * FIRST_SCREEN_WAIT_MS: how long the first render waits for the router's first
 * screen. A link's form is mostly ready within a few tasks (its start call left
 * before the app's code arrived: app/routes.tsx, startLoader), and is then the
 * first thing drawn; when it is not, the shell's fallback is drawn after this
 * wait (app/Shell.tsx, ShellFallback), and the page's own top bar shows until
 * then (index.html).
 */
const FIRST_SCREEN_WAIT_MS = 300;

/** firstScreen settles in a later task once the router has its first screen, or after ms at most. */
function firstScreen(router: AppRouter, ms: number): Promise<void> {
  return new Promise((resolve) => {
    let settled = false;
    let unsubscribe = () => {};
    const done = () => {
      if (settled) return;
      settled = true;
      unsubscribe();
      clearTimeout(timer);
      void yieldToMain().then(resolve);
    };
    const timer = setTimeout(done, ms);
    if (router.state.initialized) done();
    else unsubscribe = router.subscribe((state) => void (state.initialized && done()));
  });
}

/*
 * The app starts in several tasks rather than one, so that none of them holds
 * the main thread long on a slow phone (docs/performance.md, "The application
 * screen"): the code's own evaluation, then the router, then the first render.
 * The first render is a transition, which React renders in slices with a break
 * between them instead of in one go.
 */
async function start(): Promise<void> {
  // The first screen renders in the patient's language: Spanish loads before it, English is already here.
  await setLanguage(preferredLanguage()).catch(() => undefined);
  await yieldToMain();
  const router = createAppRouter();
  await firstScreen(router, FIRST_SCREEN_WAIT_MS);
  const root = createRoot(document.getElementById('root')!);
  startTransition(() =>
    root.render(
      <StrictMode>
        <App router={router} />
      </StrictMode>,
    ),
  );
}

void start();
