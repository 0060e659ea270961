import { expect, test, type Page } from '@playwright/test';
import { agreeSoftPull, ENTITY_KEY, fillApplication, fullPageShot, Journey } from './helpers';

test('at home without an amount: the patient enters the treatment amount and the plans are priced for it', async ({ page }, info) => {
  const j = new Journey(page, info, 'at-home-amount');
  await j.init();
  // The office's link carries no amount: the form asks for it first.
  await page.goto(`/start/entity-keys/${ENTITY_KEY}`);
  await expect(page).toHaveURL(/\/modes\/prequalify\/application$/);
  const amount = page.getByLabel(/^Treatment amount/);
  await expect(amount).toBeVisible();
  await expect(page.locator('legend').first()).toHaveText('Treatment');
  await fillApplication(page, 'Approve');
  await amount.fill('');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('alert').getByText('Treatment amount: Required Field')).toBeVisible();
  await amount.pressSequentially('3200');
  await j.screen('application-amount', 'Tell us about yourself');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('heading', { name: 'Check your details' })).toBeVisible();
  await page.getByRole('button', { name: 'Confirm and continue' }).click();

  const submit = page.waitForRequest((r) => r.url().endsWith('/prequalify'));
  await agreeSoftPull(j);
  const body = (await submit).postDataJSON() as { purchaseAmountCents?: number; primary: Record<string, unknown> };
  expect(body.purchaseAmountCents).toBe(320_000);
  expect(body.primary).not.toHaveProperty('purchaseAmountCents');

  await expect(page).toHaveURL(/\/(prequalified|preapproved|approved)$/);
  await page.getByRole('button', { name: 'See payment options' }).click();
  await expect(page).toHaveURL(/\/paymentPlans$/);
  // The approval ($5,000 or more) is larger: plans are priced for the treatment.
  await expect(page.getByText(/^Your treatment costs \$3,200\.00\. You can finance up to/)).toBeVisible();
  await expect(page.locator('#estimate')).toHaveValue('3,200');
  await expect(page.getByRole('radio').first()).toBeVisible();
  await j.screen('payment-plans-amount', 'Choose your payment plan');
});

test('a link lands on a page that names all of the form’s code, and the form comes with the start, sent once by the page’s first script: nothing else is fetched before it shows', async ({
  page,
}) => {
  const link = `/start/entity-keys/${ENTITY_KEY}`;
  const calls = apiCalls(page);
  // Who sent the start call: the scripts on the call's stack, as the browser saw them.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  const senders: string[] = [];
  const priority = new Map<string, string>();
  cdp.on('Network.requestWillBeSent', (e) => {
    if (e.request.url.includes('/flow/start/')) senders.push(...(e.initiator.stack?.callFrames ?? []).map((f) => new URL(f.url).pathname));
    priority.set(new URL(e.request.url).pathname, e.request.initialPriority);
  });
  // The page notes, on its own clock, when the form's first box appears:
  // scripts the app asks for later (the time-out's) are not the form's.
  await page.addInitScript(() => {
    new MutationObserver((_, obs) => {
      if (![...document.querySelectorAll('label')].some((l) => l.textContent?.startsWith('Treatment amount'))) return;
      (window as unknown as { formShownAt: number }).formShownAt = performance.now();
      obs.disconnect();
    }).observe(document, { subtree: true, childList: true });
  });
  await page.goto(link);
  await expect(page).toHaveURL(/\/modes\/prequalify\/application$/);
  await expect(page.getByLabel(/^Treatment amount/)).toBeVisible();
  const fetched = await page.evaluate(() => {
    const shownAt = (window as unknown as { formShownAt: number }).formShownAt;
    return performance
      .getEntriesByType('resource')
      .filter((e) => e.startTime < shownAt && new URL(e.name).pathname.endsWith('.js'))
      .map((e) => new URL(e.name).pathname);
  });
  // What the page names is read from the page as served, not from the
  // document, where the app adds preload links of its own as it goes.
  const served = await (await page.request.get(link)).text();
  const named = new Set([...served.matchAll(/<(?:script|link)[^>]+(?:src|href)="([^"]+\.js)"/g)].map((m) => m[1] ?? ''));
  expect(named.size).toBeGreaterThan(3);
  expect([...named].filter((s) => !fetched.includes(s))).toEqual([]);
  expect(fetched.filter((s) => !named.has(s))).toEqual([]);
  expect(calls.filter((c) => c.includes('/apply/start/'))).toEqual([]);
  expect(calls.filter((c) => c.includes('/flow/start/'))).toEqual([`POST /api/v1/flow/start/entity-keys/${ENTITY_KEY}`]);
  // Only the form's words came with it (locales/en/form.ts): none of the screen shows as a message's key.
  const catalogue = /\b(?:application|common|docs|lenderSteps|start|creditLimit|finish|help|offers|payment|quiz|results|signing)\.[a-z]\w*(?:\.\w+)*/;
  expect(await page.locator('body').innerText()).not.toMatch(catalogue);
  // The page's first script (async, before the app's) sent it while the app's code was still arriving.
  const first = /<script type="module" async[^>]+src="([^"]+)"/.exec(served)?.[1];
  expect(first).toBeTruthy();
  expect(served.indexOf(first!)).toBeLessThan(served.search(/<script type="module" crossorigin[^>]*\ssrc=/));
  expect(senders).toContain(first);
  // The first script and the stylesheet come at the browser's usual priority, the app's code at low
  // priority, so the page's top bar paints while the code arrives (vite.config.ts, codeAfterPaint).
  const usual = [first!, ...[...served.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">/g)].map((m) => m[1]!)];
  const later = [...named].filter((s) => !usual.includes(s));
  expect(later.length).toBeGreaterThan(3);
  expect(usual.map((s) => priority.get(s))).toEqual(usual.map(() => 'High'));
  expect(later.map((s) => priority.get(s))).toEqual(later.map(() => 'Low'));
  const css = /<link rel="stylesheet"[^>]+href="([^"]+)"/.exec(served)?.[1];
  expect(priority.get(css!)).toBe('VeryHigh');
});

/** apiCalls records the page's API calls from now on, each as "METHOD /api/v1/…". */
function apiCalls(page: Page): string[] {
  const calls: string[] = [];
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (url.pathname.startsWith('/api/')) calls.push(`${r.method()} ${url.pathname}`);
  });
  return calls;
}

/** The English demo office, and Clínica Dental del Valle, which speaks Spanish to a browser that asks for English. */
const FIRST_WORDS = [
  {
    office: 'an English office',
    key: ENTITY_KEY,
    shot: 'link-first-words',
    title: 'Tell us about yourself',
    lead: /^You’re checking financing options with \S.*\.$/,
  },
  {
    office: 'an office that speaks Spanish',
    key: '1000200030023000',
    shot: 'link-first-words-es',
    title: 'Cuéntenos sobre usted',
    lead: /^Está consultando opciones de financiamiento con \S.*\.$/,
  },
];

for (const { office, key, shot, title, lead: leadText } of FIRST_WORDS) {
  test(`${office}: a link’s page says what the form is before the app’s code has run, and the heading stays where it is when the form comes @phone`, async ({
    page,
  }, info) => {
    const link = `/start/entity-keys/${key}`;
    const calls = apiCalls(page);
    // The app's own script is held back: what shows meanwhile is the page's and its first script's (src/early.ts).
    const served = await (await page.request.get(link)).text();
    const app = /<script type="module" crossorigin[^>]*\ssrc="([^"]+)"/.exec(served)?.[1];
    expect(app).toBeTruthy();
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(`**${app!}`, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(link, { waitUntil: 'commit' });
    const heading = page.getByRole('heading', { level: 1, name: title });
    const lead = page.locator('p.lead');
    await expect(heading).toBeVisible();
    await expect(lead).toHaveText(leadText);
    const early = { text: await lead.textContent(), heading: await heading.boundingBox(), lead: await lead.boundingBox() };
    // Nothing of the app has run: the form is not there, and the top bar is still the page's own.
    await expect(page.locator('header[data-page-bar]')).toHaveCount(1);
    await expect(page.locator('input')).toHaveCount(0);
    await fullPageShot(page, info, shot, false);

    release();
    await expect(page.locator('input').first()).toBeVisible();
    await expect(page.locator('header[data-page-bar]')).toHaveCount(0);
    // The app's own words are the same, in the same place: nothing jumps when it takes the page over.
    await expect(lead).toHaveText(early.text!);
    expect(await heading.boundingBox()).toEqual(early.heading);
    expect(await lead.boundingBox()).toEqual(early.lead);
    // The form came with the start, in the office's language: it was not asked for again.
    expect(calls.filter((c) => c.includes('/apply/start/'))).toEqual([]);
  });
}
