import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { render } from '@testing-library/react';
import { paintFirstWords, PAGE_BAR, type FirstWords } from '@/lib/firstWords';
import { ShellFallback } from './Shell';

/*
 * A link's page draws the form's heading and lead before the app has loaded
 * (lib/firstWords.ts): under its own top bar, and as the app's placeholder
 * then draws them (ShellFallback), so nothing changes when the app takes over.
 */

/** The page a link lands on, as index.html draws it: its own top bar in the app's root. */
function landingPage(): HTMLElement {
  const html = readFileSync(path.join(__dirname, '..', '..', 'index.html'), 'utf8');
  document.body.innerHTML = /<body>([\s\S]*)<\/body>/.exec(html)![1]!.replace(/<script[\s\S]*?<\/script>/g, '');
  return document.getElementById('root')!;
}

afterEach(() => {
  document.body.innerHTML = '';
});

describe('paintFirstWords', () => {
  const words: FirstWords = { title: 'Cuéntenos sobre usted', lead: 'Está consultando opciones con Synchrony.', loading: 'Cargando…', lang: 'es' };

  it('draws the heading and the lead under the page’s own top bar, in their language, once', () => {
    const root = landingPage();
    expect(root.firstElementChild?.hasAttribute(PAGE_BAR)).toBe(true);
    expect(paintFirstWords(words)).toBe(true);
    const main = root.querySelector('main')!;
    expect(main.querySelector('h1')?.textContent).toBe(words.title);
    expect(main.querySelector('p.lead')?.textContent).toBe(words.lead);
    expect(main.lang).toBe('es');
    expect(main.getAttribute('aria-busy')).toBe('true');
    expect(main.querySelector('[role=status]')?.textContent).toBe('Cargando…');
    // A second answer finds the page no longer the page's own.
    expect(paintFirstWords(words)).toBe(false);
    expect(root.querySelectorAll('h1')).toHaveLength(1);
  });

  it('leaves a page the app has drawn alone', () => {
    const root = landingPage();
    root.innerHTML = '<header class="topbar"></header><main><h1>Choose your payment plan</h1></main>';
    expect(paintFirstWords(words)).toBe(false);
    expect(root.querySelector('h1')?.textContent).toBe('Choose your payment plan');
  });

  it('draws what the app’s own placeholder draws with them, so nothing changes when the app takes over', () => {
    const root = landingPage();
    paintFirstWords(words);
    const painted = [...root.children].filter((el) => !el.hasAttribute(PAGE_BAR)).map((el) => el.outerHTML);
    // The app's placeholder sets the loading block's height as a style, which the page's leaves to the form.
    const { container } = render(<ShellFallback />);
    const app = container.innerHTML.replace(/^<header[\s\S]*?<\/header>/, '').replace(/ style="[^"]*"/g, '');
    expect(painted.join('')).toBe(app);
  });
});
