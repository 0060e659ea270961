import { expect, test } from '@playwright/test';
import { Journey } from './helpers';
import { addStaff, STAFF_PASSWORD as PASSWORD } from './staff';

test('the office: sign in, see the office, sign out', async ({ page }, info) => {
  const email = addStaff();
  const j = new Journey(page, info, 'office');
  // Signed out, the session check and a wrong password answer 401: Chromium logs each as a failed resource.
  j.allow(/status of 401/);
  await j.init();

  await page.goto('/office');
  await j.screen('sign-in', 'Office sign-in');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText('Enter your email address.')).toBeVisible();
  await expect(page.getByLabel('Email')).toBeFocused();

  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('not the password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toHaveText('That email and password do not match. Check them and try again.');
  await expect(page.getByLabel('Password')).toHaveValue('');
  await j.screen('sign-in-wrong', 'Office sign-in');

  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await j.screen('signed-in', 'Bright Smile Dental');
  await expect(page.getByText(/Signed in as/)).toHaveText(`Signed in as ${email} at Bright Smile Dental.`);
  const cookie = (await page.context().cookies()).find((c) => c.name === 'chairside_staff');
  expect(cookie?.httpOnly).toBe(true);
  expect(cookie?.sameSite).toBe('Strict');
  expect(await page.evaluate(() => document.cookie)).not.toContain('chairside_staff');

  // A reload keeps the staff member signed in.
  await page.reload();
  await j.screen('signed-in-again', 'Bright Smile Dental');

  await page.getByRole('button', { name: 'Sign out' }).click();
  await j.screen('signed-out', 'Office sign-in');
  await page.reload();
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  await j.assertClean();
});
