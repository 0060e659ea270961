import { expect, type Locator, type Page, type TestInfo } from '@playwright/test';
import { createHash } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AxeResults, RunOptions } from 'axe-core';

export const ENTITY_KEY = '1000200030004000';
/** Hill Country Dental Care (TX): LendingClub, then Covered Care and HFD on their own; no standard application. */
export const HILL_COUNTRY = '1000200030006000';
/**
 * firstToScan claims the axe scan of a screen for this worker, false when
 * any worker of this run has scanned it: a marker file per screen, created
 * only if absent, in the folder global-setup.ts makes for the run. A scan
 * costs about a second of CPU, and the workers meet the same screens.
 */
function firstToScan(key: string): boolean {
  const dir = process.env.E2E_AXE_SCANNED;
  if (!dir) throw new Error('E2E_AXE_SCANNED is not set: run the browser tests through playwright.config.ts');
  try {
    closeSync(openSync(path.join(dir, createHash('sha256').update(key).digest('hex')), 'wx'));
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
}
/** axe-core's browser build, read once per worker. */
const AXE_SOURCE = readFileSync(fileURLToPath(import.meta.resolve('axe-core/axe.min.js')), 'utf8');
const AXE_OPTIONS: RunOptions = {
  runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] },
  resultTypes: ['violations'],
};
const SHOTS = path.join(path.dirname(fileURLToPath(import.meta.url)), 'screenshots');
mkdirSync(SHOTS, { recursive: true });

declare global {
  interface Window {
    __csp?: string[];
  }
}

/**
 * Journey watches a page: console errors, page errors and CSP violations
 * fail the test; every screen visited gets an axe scan (serious and
 * critical violations fail) and a screenshot.
 */
export class Journey {
  private problems: string[] = [];
  private allowed: RegExp[] = [];
  private n = 0;

  constructor(
    readonly page: Page,
    private info: TestInfo,
    private slug: string,
  ) {
    page.on('console', (m) => {
      if (m.type() === 'error' && !this.allowed.some((a) => a.test(m.text()))) this.problems.push(`console: ${m.text()}`);
    });
    page.on('pageerror', (e) => this.problems.push(`pageerror: ${e.message}`));
  }

  /** allow lets a test expect one kind of console error (e.g. Chromium's line for an answer the test itself forces). */
  allow(pattern: RegExp): void {
    this.allowed.push(pattern);
  }

  async init(): Promise<void> {
    await this.page.addInitScript(() => {
      window.__csp = [];
      document.addEventListener('securitypolicyviolation', (e) => window.__csp!.push(`${e.violatedDirective} ${e.blockedURI}`));
    });
  }

  /**
   * screen waits for a screen's h1, then scans it with axe and saves a
   * screenshot. Every distinct screen is scanned and photographed once a
   * run: both are skipped when the very same screen (its address, lender
   * included, its heading and the name the test gives it) was met earlier
   * in this run, as a walk through the same lender's screens meets them
   * again. With `scan: 'once'` the lender is left out of the address: for
   * walks that pass the same components many times with other words in
   * them.
   */
  async screen(name: string, heading?: string | RegExp, opts: { scan?: 'always' | 'once' } = {}): Promise<void> {
    const h1 = this.page.locator('h1');
    if (heading) await expect(h1).toHaveText(heading);
    else await expect(h1).toBeVisible();
    await expect(this.page.locator('.progress')).toHaveCount(0);
    await expect(this.page.locator('[role=status] .skeleton')).toHaveCount(0);
    // A screen of the app's, not what a link's page draws before the app has loaded (src/lib/firstWords.ts).
    await expect(this.page.locator('header[data-page-bar]')).toHaveCount(0);
    const pathname = new URL(this.page.url()).pathname;
    const where = opts.scan === 'once' ? pathname.replace(/^\/providers\/[^/]+\//, '/providers/*/') : pathname;
    const key = `${this.info.project.name}|${where}|${await h1.textContent()}|${name}`;
    this.n += 1;
    if (firstToScan(key)) {
      await this.scan(name);
      const file = `${this.info.project.name}-${this.slug}-${String(this.n).padStart(2, '0')}-${name}.png`;
      await this.page.screenshot({ path: path.join(SHOTS, file), type: 'png', fullPage: false, animations: 'disabled' });
    }
    await this.assertClean();
  }

  /**
   * scan fails on serious or critical axe violations of the screen as it
   * is. axe-core is evaluated in the page once per document (through the
   * DevTools protocol, which the app's CSP does not govern) and then only
   * run: injecting it for every scan cost about as much as the scan.
   * Frames are not entered; the one frame the app has is the browser's
   * own PDF viewer.
   */
  private async scan(name: string): Promise<void> {
    if (!(await this.page.evaluate(() => 'axe' in window))) await this.page.evaluate(AXE_SOURCE);
    const results = await this.page.evaluate(
      (opts) => (window as unknown as { axe: { run: (ctx: Document, o: RunOptions) => Promise<AxeResults> } }).axe.run(document, opts),
      AXE_OPTIONS,
    );
    const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(
      bad.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`),
      `axe on ${name}`,
    ).toEqual([]);
  }

  async assertClean(): Promise<void> {
    const csp = await this.page.evaluate(() => window.__csp ?? []).catch(() => [] as string[]);
    expect([...this.problems, ...csp.map((c) => `csp: ${c}`)]).toEqual([]);
  }
}

const VALUES: Record<string, string> = {
  // The treatment amount, asked when the patient starts from a link that carries none.
  purchaseAmountCents: '4500',
  firstName: 'Ann',
  middleInitial: 'B',
  dateOfBirth: '03/28/1961',
  addressLine1: '12 Ocean Ave',
  addressLine2: '',
  addressCity: 'San Diego',
  addressState: 'CA',
  addressZipCode: '92101',
  email: 'ann@example.com',
  mobilePhone: '6195550134',
  homePhone: '6195550135',
  workPhone: '6195550136',
  employerName: 'Harbor Tools',
  employerPhone: '6195550137',
  jobTitle: 'Manager',
  monthsEmployed: '48',
  housingMonths: '60',
  housingPaymentAmount: '1500',
  annualGrossIncome: '65000',
  additionalAnnualGrossIncome: '0',
  annualNetIncome: '50000',
  monthlyGrossIncome: '5400',
  monthlyNetIncome: '4200',
  idNumber: 'D1234567',
  idState: 'CA',
  idIssueDate: '01/15/2020',
  idExpirationDate: '01/15/2030',
  employmentStartDate: '01/15/2018',
  previousPayDate: '',
  nextPayDate: '',
};

/** A fresh SSN per journey: the server caps submits per SSN and day. */
export function randomSsn(): string {
  const area = 100 + Math.floor(Math.random() * 565); // 100–664: never 000, 666 or 9xx
  const group = 10 + Math.floor(Math.random() * 89);
  const serial = 1000 + Math.floor(Math.random() * 8999);
  return `${area}${group}${serial}`;
}

const ssnByPage = new WeakMap<Page, string>();

/** tabTo presses Tab until the control has focus: it fails if the control cannot be reached that way. */
export async function tabTo(page: Page, target: Locator, most = 80): Promise<void> {
  for (let i = 0; i < most; i++) {
    if (await target.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`not reachable with Tab: ${String(target)}`);
}

/** checkByKeyboard reaches a checkbox or radio with Tab and ticks it with Space. */
export async function checkByKeyboard(page: Page, target: Locator): Promise<void> {
  await tabTo(page, target);
  await page.keyboard.press('Space');
  await expect(target).toBeChecked();
}

/**
 * fillApplication fills every visible field of the form from its id, with
 * the magic last name: by Playwright's own fill and check, or, `by:
 * 'keyboard'`, as a keyboard user would — each control reached with Tab,
 * typed into, ticked with Space, a select stepped with the arrow keys.
 */
export async function fillApplication(page: Page, lastName: string, prefix = 'primary', by: 'fill' | 'keyboard' = 'fill'): Promise<void> {
  if (!ssnByPage.has(page)) ssnByPage.set(page, randomSsn());
  const keys = by === 'keyboard';
  const form = page.locator('form');
  await expect(form.locator('input, select').first()).toBeVisible();
  const controls = await form.locator(`[id^="${prefix}-"]`).all();
  for (const c of controls) {
    const id = (await c.getAttribute('id'))!.slice(prefix.length + 1);
    const tag = await c.evaluate((el) => el.tagName.toLowerCase());
    const type = (await c.getAttribute('type')) ?? '';
    if (tag === 'select') {
      const want = VALUES[id];
      const options = await c.locator('option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value).filter(Boolean));
      const value = want && options.includes(want) ? want : options[0]!;
      if (!keys) await c.selectOption(value);
      else {
        // A closed select steps through its options with the arrow keys.
        await tabTo(page, c);
        for (let i = 0; i < 80 && (await c.inputValue()) !== value; i++) await page.keyboard.press('ArrowDown');
      }
    } else if (type === 'checkbox' || (type === 'radio' && /-0$/.test(id))) {
      if (keys) await checkByKeyboard(page, c);
      else await c.check();
    } else if (tag === 'input' && type !== 'radio') {
      const value = id === 'lastName' ? lastName : id === 'ssn' ? ssnByPage.get(page)! : (VALUES[id] ?? 'Test');
      if (!value || (keys && (await c.inputValue()) === value)) continue;
      if (keys) {
        await tabTo(page, c);
        await page.keyboard.press('ControlOrMeta+A');
        await page.keyboard.press('Backspace');
        await page.keyboard.type(value);
      } else {
        await c.fill('');
        await c.pressSequentially(value, { delay: 0 });
      }
    }
  }
}

/**
 * fillRequired fills what a patient must, as a patient would: each required
 * field still empty when they reach it, in the form's order (so the city and
 * state the ZIP code filled in are left as they are), and answers how many
 * fields they had to fill. With `by: 'fill'` each text is set at once rather
 * than typed key by key (for tests about what comes after the form).
 */
export async function fillRequired(page: Page, lastName: string, prefix = 'primary', by: 'type' | 'fill' = 'type'): Promise<number> {
  if (!ssnByPage.has(page)) ssnByPage.set(page, randomSsn());
  const form = page.locator('form');
  await expect(form.locator('input, select').first()).toBeVisible();
  let filled = 0;
  for (const c of await form.locator(`[id^="${prefix}-"][aria-required="true"]`).all()) {
    const id = (await c.getAttribute('id'))!.slice(prefix.length + 1);
    if (await c.inputValue()) continue;
    const tag = await c.evaluate((el) => el.tagName.toLowerCase());
    const value = id === 'lastName' ? lastName : id === 'ssn' ? ssnByPage.get(page)! : VALUES[id]!;
    if (tag === 'select') await c.selectOption(value);
    else if (by === 'fill') await c.fill(value);
    else await c.pressSequentially(value, { delay: 0 });
    if (id === 'addressZipCode') await expect(form.locator(`#${prefix}-addressState`)).not.toHaveValue(''); // filled in from the ZIP code
    filled += 1;
  }
  return filled;
}

/**
 * acceptFirstPlanAndSign goes on from the plans screen: the first plan,
 * accepted, the lender's terms agreed to and signed, to the completion
 * screen.
 */
export async function acceptFirstPlanAndSign(page: Page, lender: string): Promise<void> {
  await page.getByRole('radio').first().click();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/paymentPlanReview$/);
  await page.getByRole('button', { name: 'Accept offer' }).click();
  await expect(page).toHaveURL(/\/terms$/);
  await agreeToSigning(page, lender, true);
  await drawSignature(page);
  await page.getByRole('button', { name: 'Sign and finish' }).click();
  await expect(page).toHaveURL(/\/complete$/);
}

/** drawSignature signs the pad with a few strokes. */
export async function drawSignature(page: Page): Promise<void> {
  const pad = page.getByTestId('signature-pad');
  await pad.scrollIntoViewIfNeeded();
  const box = (await pad.boundingBox())!;
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + 30, y);
  await page.mouse.down();
  for (let i = 0; i <= 40; i++) {
    await page.mouse.move(box.x + 30 + i * ((box.width - 60) / 40), y + Math.sin(i / 2.5) * 35, { steps: 2 });
  }
  await page.mouse.up();
  await page.mouse.move(box.x + 60, y + 40);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width - 80, y - 40, { steps: 20 });
  await page.mouse.up();
}

/** submitApplication fills, continues and confirms the details. */
export async function submitApplication(j: Journey, lastName: string, shotName = 'application'): Promise<void> {
  const page = j.page;
  await fillApplication(page, lastName);
  await j.screen(shotName, 'Tell us about yourself').catch(async (e) => {
    throw e;
  });
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('heading', { name: 'Check your details' })).toBeVisible();
  await page.getByRole('button', { name: 'Confirm and continue' }).click();
}

/** The demo's lease-to-own lenders (catalogue kind lease_to_own): no credit check. */
const LEASES = ['Snap'];

/** listed: names as the app lists them in English, "A, B and C". */
const listed = (names: string[]) => (names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : (names[0] ?? ''));

/** softPullBox: the soft-pull box for several lenders: a soft credit check by the credit lenders, a look at the details given by the leases. */
function softPullBox(lenders: string[]): string {
  const credit = lenders.filter((l) => !LEASES.includes(l));
  const leases = lenders.filter((l) => LEASES.includes(l));
  if (!leases.length) return `I have read these and I agree to a soft credit check by ${listed(credit)}.`;
  if (!credit.length) return `I have read these and I agree that ${listed(leases)} may look at the details I give.`;
  return `I have read these. I agree that ${listed(leases)} may look at the details I give, and to a soft credit check by ${listed(credit)}.`;
}

/**
 * agreeSoftPull agrees on the soft-pull screen. When `lenders` is given, the
 * screen must show one document under each lender's name, in that order
 * (the current lender and every lender the app may then ask on its own).
 */
export async function agreeSoftPull(j: Journey, lenders?: string[]): Promise<void> {
  await j.screen('prequalify-agree', 'Before we check your options');
  // A lease-to-own first lender (Snap) is asked for no credit check: its box agrees to it looking at the details given.
  const box = j.page.getByRole('checkbox', { name: /^I have read (this|these)(\.| and) I agree (to a soft credit check|that)/ });
  await expect(box).not.toBeChecked();
  if (lenders) {
    await expect(j.page.locator('.doc')).toHaveCount(lenders.length);
    if (lenders.length > 1) {
      await expect(j.page.locator('.consent-doc__lender')).toHaveText(lenders);
      await expect(box).toHaveAccessibleName(softPullBox(lenders));
    }
    // A lease is never said to look at the credit report, wherever it stands in the chain.
    for (const lease of lenders.filter((l) => LEASES.includes(l))) {
      await expect(j.page.locator('main')).toContainText(`${lease} offers a lease, not credit`);
      await expect(j.page.locator('main')).not.toContainText(new RegExp(`${lease}[^.]* will (each )?look at your credit report`));
    }
  }
  await box.check();
  await j.page.getByRole('button', { name: 'Check my options' }).click();
}

/** The boxes of the signing screen, each agreeing to one document (docs/behaviour.md, "Signing"). */
export const SIGNING_BOXES = {
  esign: (lender: string) => `I agree to receive and sign my documents from ${lender} electronically.`,
  agreement: (lender: string) => `I have read the ${lender} agreement and I agree to its terms.`,
  hardPull: (lender: string) => `I allow ${lender} to get my full credit report (a hard credit check) to open my account.`,
  /** A lease-to-own lender's, in the place of the hard pull: no credit check. */
  leaseCheck: (lender: string) => `I allow ${lender} to verify the information I gave and to open my lease.`,
};

/**
 * checkSigningScreen checks what the signing screen shows before anything
 * is ticked: the E-SIGN disclosure and the lender's agreement, and the
 * hard-pull authorisation only after a quick check (soft pull), each with its
 * own unticked box.
 */
export async function checkSigningScreen(page: Page, lender: string, hardPull: boolean): Promise<void> {
  await expect(page.getByRole('heading', { name: `Your agreement with ${lender}` })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Credit agreement' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Permission for a full credit check' })).toHaveCount(hardPull ? 1 : 0);
  await expect(page.locator('.doc')).toHaveCount(hardPull ? 3 : 2);
  const boxes = [SIGNING_BOXES.esign(lender), SIGNING_BOXES.agreement(lender), ...(hardPull ? [SIGNING_BOXES.hardPull(lender)] : [])];
  for (const name of boxes) await expect(page.getByRole('checkbox', { name })).not.toBeChecked();
  await expect(page.getByRole('checkbox')).toHaveCount(boxes.length);
}

/** agreeToSigning ticks every box of the signing screen. */
export async function agreeToSigning(page: Page, lender: string, hardPull: boolean): Promise<void> {
  await page.getByRole('checkbox', { name: SIGNING_BOXES.esign(lender) }).check();
  await page.getByRole('checkbox', { name: SIGNING_BOXES.agreement(lender) }).check();
  if (hardPull) await page.getByRole('checkbox', { name: SIGNING_BOXES.hardPull(lender) }).check();
}

/**
 * fullPageShot saves the whole of a long screen (the signing screen) beside the journey's screenshots, to be looked
 * at; with fullPage false, what the screen shows now (a moment no journey screenshot catches).
 */
export async function fullPageShot(page: Page, info: TestInfo, name: string, fullPage = true): Promise<void> {
  const file = `${info.project.name}-${name}${fullPage ? '-full' : ''}.png`;
  await page.screenshot({ path: path.join(SHOTS, file), fullPage, animations: 'disabled' });
}

/**
 * openCase opens an office's link (an entity key's, or a one-time invitation) and names the sandbox test case for the
 * new session (as the API allows outside env prod), once the form shows.
 * It answers the session's id, which only the start's answer carries: the
 * form comes with the start, so the form's screen makes no call to read it
 * from.
 */
export async function openCase(page: Page, testCase: string, link = `/start/entity-keys/${ENTITY_KEY}`): Promise<string> {
  const started = page.waitForResponse((r) => r.url().includes('/api/v1/flow/start/') && r.request().method() === 'POST');
  await page.goto(link);
  const sessionId = ((await (await started).json()) as { session: { webSessionId: string } }).session.webSessionId;
  await expect(page).toHaveURL(/\/modes\/prequalify\/application$/);
  const applied = await page.request.post(`/api/v1/test-cases/apply/${testCase}`, {
    headers: { 'X-Web-Session-Id': sessionId, 'Content-Type': 'application/json' },
    data: {},
  });
  expect(applied.status()).toBe(200);
  return sessionId;
}

/** startWithCase opens a test case (openCase), applies and agrees to the soft pull; it answers the session's id. */
export async function startWithCase(page: Page, j: Journey, testCase: string, lastName: string, entityKey = ENTITY_KEY): Promise<string> {
  const sessionId = await openCase(page, testCase, `/start/entity-keys/${entityKey}`);
  await submitApplication(j, lastName, `${testCase}-application`);
  await agreeSoftPull(j);
  return sessionId;
}
