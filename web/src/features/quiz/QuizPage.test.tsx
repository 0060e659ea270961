import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { flow } from '@/stores/flow';
import { QuizPage, quizRequired } from './QuizPage';

const get = vi.hoisted(() => vi.fn());
const post = vi.hoisted(() => vi.fn());
vi.mock('@/lib/api/client', async (actual) => {
  const real = await actual<typeof import('@/lib/api/client')>();
  return { ...real, api: { ...real.api, get, post } };
});

const quiz = (id: string) => ({
  quizId: id,
  expiresAt: '2030-01-01T00:00:00Z',
  questions: ['q1', 'q2', 'q3'].map((q) => ({
    id: q,
    text: `Question ${q}?`,
    choices: ['c1', 'c2'].map((c) => ({ id: c, text: `Answer ${q}${c}` })),
  })),
});

function show() {
  const router = createMemoryRouter(
    [
      { path: '/providers/synchrony_standard/quiz', Component: QuizPage },
      { path: '/providers/synchrony_standard/terms', Component: () => <h1>Read and sign</h1> },
    ],
    { initialEntries: ['/providers/synchrony_standard/quiz'] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

async function answerAll(choice: string) {
  for (const q of ['q1', 'q2', 'q3']) await userEvent.click(await screen.findByLabelText(`Answer ${q}${choice}`));
  await userEvent.click(screen.getByRole('button', { name: 'Send my answers' }));
}

describe('identity quiz', () => {
  beforeEach(() => {
    get.mockReset();
    post.mockReset();
    flow.set({ providerKey: 'synchrony_standard' });
    get.mockResolvedValue({ result: '', attemptsLeft: 2, passed: false, quiz: quiz('A') });
  });

  it('knows which decisions ask for it', () => {
    expect(quizRequired([{ type: 'identity_quiz' }])).toBe(true);
    expect(quizRequired([{ type: 'bank_account' }])).toBe(false);
    expect(quizRequired(undefined)).toBe(false);
  });

  it('one fieldset per question; asks for every answer before sending', async () => {
    show();
    expect(await screen.findAllByRole('group')).toHaveLength(3);
    await userEvent.click(screen.getByRole('button', { name: 'Send my answers' }));
    expect(screen.getAllByText('Please choose an answer.')).toHaveLength(3);
    expect(post).not.toHaveBeenCalled();
  });

  it('fails once with fresh questions, then passes and goes on to signing', async () => {
    post.mockResolvedValueOnce({ result: 'failed', attemptsLeft: 1, passed: false, quiz: quiz('B') });
    post.mockResolvedValueOnce({ result: 'passed', attemptsLeft: 0, passed: true });
    const router = show();
    await answerAll('c1');
    expect(await screen.findByText(/Quiz failed, you have 1 more attempt/)).toBeTruthy();
    expect(post.mock.calls[0]?.[0]).toMatch(/\/answers$/);
    expect(post.mock.calls[0]?.[1]).toEqual({ quizId: 'A', answers: { q1: 'c1', q2: 'c1', q3: 'c1' } });
    await answerAll('c2');
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/providers/synchrony_standard/terms'));
    expect(post.mock.calls[1]?.[1]).toEqual({ quizId: 'B', answers: { q1: 'c2', q2: 'c2', q3: 'c2' } });
  });

  it('after the second failure: a calm screen, no decline words', async () => {
    post.mockResolvedValueOnce({ result: 'failed', attemptsLeft: 0, passed: false });
    show();
    await answerAll('c1');
    expect(await screen.findByText(/will contact you/)).toBeTruthy();
    expect(document.body.textContent).not.toMatch(/declin|couldn't approve|denied/i);
    expect(screen.queryByRole('button', { name: 'Send my answers' })).toBeNull();
  });
});
