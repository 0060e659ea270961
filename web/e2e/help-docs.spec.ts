import { expect, test } from '@playwright/test';
import { ENTITY_KEY, Journey } from './helpers';

/*
 * Help and documents (docs/behaviour.md, "Help and documents"): every
 * documents page opened from a link in copy, and Back to where the patient
 * was; a PDF in the browser's own viewer; the glossary searched.
 */

/** The help drawer's documents list: the link's words and the page's address. */
const DOCS: [string, string][] = [
  ['Privacy notice', 'privacyNotice'],
  ['Privacy policy', 'privacy'],
  ['Electronic documents and signatures', 'electronicDisclosuresAndSignatures'],
  ['Prequalification terms', 'prequalificationtandc'],
  ['Permission to check your credit', 'creditReport'],
  ['The lenders we work with', 'participatingCreditors'],
  ['Arbitration agreement', 'arbitration'],
  ['Arbitration provision', 'arbitrationProvision'],
];

test('documents: each page opens from a link in copy, and Back returns to where the patient was; a PDF shows in the browser’s viewer', async ({
  page,
}, info) => {
  const j = new Journey(page, info, 'documents');
  await j.init();
  await page.goto(`/start/entity-keys/${ENTITY_KEY}`);
  await expect(page).toHaveURL(/\/modes\/prequalify\/application$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Tell us about yourself' })).toBeVisible();
  const form = page.url();

  for (const [words, name] of DOCS) {
    await page.locator('.topbar').getByRole('button', { name: 'Help' }).click();
    const drawer = page.getByRole('dialog', { name: 'Help' });
    await drawer.getByRole('region', { name: 'Documents' }).getByRole('link', { name: words, exact: true }).click();
    await expect(drawer).toHaveCount(0);
    // A lender's document names its lender in the address (our own need none), so it opens in a new tab too.
    await expect(page).toHaveURL(new RegExp(`/docs/${name}(\\?providerKey=synchrony_standard)?$`));
    await expect(page.locator('.doc-page__text')).toBeVisible();
    await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toHaveCount(0);
    // Neither the stepper nor the lender's cancel button: this page is outside the journey.
    await expect(page.getByRole('navigation', { name: 'Progress' })).toHaveCount(0);
    await j.screen(`doc-${name}`, undefined, { scan: 'once' });
    await page.getByRole('button', { name: 'Back' }).click();
    await expect(page).toHaveURL(form);
    await expect(page.getByRole('heading', { level: 1, name: 'Tell us about yourself' })).toBeVisible();
  }

  // Links inside a lender's document: the prequalification terms link the privacy notice and the rates sheet (PDF).
  await page.locator('.topbar').getByRole('button', { name: 'Help' }).click();
  await page.getByRole('dialog', { name: 'Help' }).getByRole('link', { name: 'Prequalification terms', exact: true }).click();
  await expect(page).toHaveURL(/\/docs\/prequalificationtandc\?providerKey=synchrony_standard$/);
  await page.locator('.doc-page__text').getByRole('link', { name: 'privacy notice' }).click();
  await expect(page).toHaveURL(/\/docs\/privacyNotice$/);
  await page.getByRole('button', { name: 'Back' }).click();
  await expect(page).toHaveURL(/\/docs\/prequalificationtandc\?providerKey=synchrony_standard$/);

  const pdf = page.waitForResponse(
    (r) => /\/api\/v1\/documents\/pdf\/synchrony_standard-rates\.pdf\?lang=en$/.test(r.url()) && r.request().method() === 'GET',
  );
  await page
    .locator('.doc-page__text')
    .getByRole('link', { name: /rates sheet/ })
    .click();
  await expect(page).toHaveURL(/\/docs\/pdf\/synchrony_standard-rates\.pdf$/);
  const res = await pdf;
  expect(res.status()).toBe(200);
  expect(res.headers()['content-type']).toBe('application/pdf');
  const frame = page.locator('iframe.pdf-frame');
  await expect(frame).toHaveAttribute('src', '/api/v1/documents/pdf/synchrony_standard-rates.pdf?lang=en');
  await expect(page.getByRole('link', { name: 'Open or download the PDF' })).toHaveAttribute(
    'href',
    '/api/v1/documents/pdf/synchrony_standard-rates.pdf?lang=en',
  );
  await j.screen('pdf', 'Rates sheet');
  await page.getByRole('button', { name: 'Back' }).click();
  await expect(page).toHaveURL(/\/docs\/prequalificationtandc\?providerKey=synchrony_standard$/);
  await page.getByRole('button', { name: 'Back' }).click();
  await expect(page).toHaveURL(form);

  // A lender's document opened in a new tab, which holds no session: the address names the lender, in either shape.
  const tab = await page.context().newPage();
  for (const address of ['/docs/creditReport?providerKey=synchrony_standard', '/#/docs/creditReport?providerKey=synchrony_standard']) {
    await tab.goto(address);
    await expect(tab).toHaveURL(/\/docs\/creditReport\?providerKey=synchrony_standard$/);
    await expect(tab.locator('.doc-page__text')).toBeVisible();
    await expect(tab.getByRole('heading', { level: 1, name: 'Page not found' })).toHaveCount(0);
  }
  await tab.close();

  // An address of the old shape opened on its own lands on the page, and an unknown one is not found.
  await page.goto('/#/docs/privacyNotice');
  await expect(page).toHaveURL(/\/docs\/privacyNotice$/);
  await expect(page.locator('.doc-page__text')).toBeVisible();
  await page.goto('/docs/noSuchDocument');
  await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
});

test('glossary: a search shows the matching terms opened, and a word with no match says so @phone', async ({ page }, info) => {
  const j = new Journey(page, info, 'glossary');
  await j.init();
  await page.goto('/contexthelp');
  await expect(page.getByRole('heading', { level: 1, name: 'FAQs' })).toBeVisible();
  await expect(page.locator('.acc-trigger').first()).toBeVisible();
  await j.screen('faqs', 'FAQs');

  await page.getByRole('tab', { name: 'Glossary' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Glossary' })).toBeVisible();
  const box = page.getByRole('searchbox', { name: 'Search the glossary' });
  const searched = page.waitForResponse((r) => r.url().includes('/api/v1/help/glossary/search?') && new URL(r.url()).searchParams.get('q') === 'apr');
  await box.fill('apr');
  expect((await searched).status()).toBe(200);
  const apr = page.locator('.acc-trigger', { hasText: /^APR/ }).first();
  await expect(apr).toHaveAttribute('aria-expanded', 'true');
  await expect(page.getByText(/^\d+ terms? match(es)? “apr”\.$/)).toBeVisible();
  await j.screen('glossary-apr', 'Glossary');

  await box.fill('xyzzyq');
  await expect(page.getByText('No terms match “xyzzyq”.')).toBeVisible();
  await expect(page.locator('.acc-trigger')).toHaveCount(0);
  await j.screen('glossary-none', 'Glossary');

  await page.getByRole('button', { name: 'Clear' }).click();
  await expect(page.locator('.acc-trigger').first()).toBeVisible();
});
