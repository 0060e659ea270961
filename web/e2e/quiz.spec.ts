import { expect, test, type Page } from '@playwright/test';
import { createHash } from 'node:crypto';
import { agreeSoftPull, agreeToSigning, drawSignature, Journey, openCase, submitApplication } from './helpers';

/*
 * The identity-quiz test case (docs/behaviour.md, "The identity quiz"): the
 * lender approves, asks three questions after the offer is accepted, the
 * patient fails once, passes the fresh quiz, signs and finishes. The right
 * choices are worked out here the way the sandbox makes them
 * (lender/sandbox/quiz.go, RightAnswers): from the lender application id and
 * the quiz id, which the browser receives but never the answers.
 */

function rightAnswers(lenderApplicationId: string, quizId: string): Record<string, string> {
  const h = createHash('sha256').update(`${lenderApplicationId}|${quizId}`).digest();
  return { q1: `c${(h[0]! % 4) + 1}`, q2: `c${(h[1]! % 4) + 1}`, q3: `c${(h[2]! % 4) + 1}` };
}

async function answer(page: Page, answers: Record<string, string>): Promise<void> {
  for (const [q, c] of Object.entries(answers)) await page.locator(`#${q}-${c}`).check();
}

test('identity quiz: fail once, pass the fresh quiz, sign and finish', async ({ page }, info) => {
  const j = new Journey(page, info, 'quiz');
  await j.init();
  await openCase(page, 'identity-quiz');
  await expect(page).toHaveURL(/\/providers\/synchrony_standard\/modes\/prequalify\/application$/);

  const decided = page.waitForResponse((r) => r.url().endsWith('/providers/synchrony_standard/prequalify'));
  await submitApplication(j, 'Quizzical', 'quiz-application');
  await agreeSoftPull(j);
  const lenderApplicationId = ((await (await decided).json()) as { lenderApplicationId: string }).lenderApplicationId;

  await expect(page).toHaveURL(/\/(prequalified|preapproved|approved)$/);
  await page.getByRole('button', { name: 'See payment options' }).click();
  await expect(page).toHaveURL(/\/paymentPlans$/);
  await page.getByRole('radio').first().click();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/paymentPlanReview$/);
  const firstQuiz = page.waitForResponse((r) => r.url().endsWith('/providers/synchrony_standard/quiz'));
  await page.getByRole('button', { name: 'Accept offer' }).click();

  await expect(page).toHaveURL(/\/providers\/synchrony_standard\/quiz$/);
  const quizA = ((await (await firstQuiz).json()) as { quiz: { quizId: string } }).quiz.quizId;
  await expect(page.getByRole('group')).toHaveCount(3);
  await j.screen('quiz', 'Confirm your identity');
  const right = rightAnswers(lenderApplicationId, quizA);
  const wrong = { ...right, q1: right.q1 === 'c1' ? 'c2' : 'c1' };
  await answer(page, wrong);
  const failed = page.waitForResponse((r) => r.url().endsWith('/answers'));
  await page.getByRole('button', { name: 'Send my answers' }).click();
  const quizB = ((await (await failed).json()) as { quiz: { quizId: string } }).quiz.quizId;
  await expect(page.getByText(/Quiz failed, you have 1 more attempt/)).toBeVisible();
  await j.screen('quiz-failed-once', 'Confirm your identity');
  await answer(page, rightAnswers(lenderApplicationId, quizB));
  await page.getByRole('button', { name: 'Send my answers' }).click();

  await expect(page).toHaveURL(/\/providers\/synchrony_standard\/terms$/);
  await agreeToSigning(page, 'Synchrony', true);
  await drawSignature(page);
  await page.getByRole('button', { name: 'Sign and finish' }).click();
  await expect(page).toHaveURL(/\/complete$/);
  await page.getByRole('button', { name: 'Finish' }).click();
  await expect(page).toHaveURL(/\/finish\/completed$/);
});
