import { expect, test } from '@playwright/test';
import { ENTITY_KEY, Journey } from './helpers';

/**
 * The accessibility scan every screen gets (Journey.screen) can fail: a
 * screen with an image that has no text alternative is refused. Without
 * this, a scan that ran no rules would pass every screen.
 */
test('the axe scan refuses a screen with an image lacking alt text', async ({ page }, info) => {
  const j = new Journey(page, info, 'axe-probe');
  await page.goto(`/start/entity-keys/${ENTITY_KEY}`);
  // The app's own screen: the heading a link's page draws before the app (src/lib/firstWords.ts) is replaced with it.
  await expect(page).toHaveURL(/\/modes\/prequalify\/application$/);
  await expect(page.getByLabel(/^Treatment amount/)).toBeVisible();
  await page.evaluate(() => {
    const img = document.createElement('img');
    img.src = '/favicon.ico';
    document.querySelector('h1')!.after(img);
  });
  await expect(j.screen('axe-probe-image-without-alt')).rejects.toThrow(/image-alt/);
});
