import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { setLanguage } from '@/lib/i18n';
import { flow } from '@/stores/flow';
import { lender, withCatalogue } from '@/test/catalogue';
import { QuizPage } from './QuizPage';

/* The identity quiz in Spanish: our words around the lender's questions, which the server sends in the patient's language. */

const get = vi.hoisted(() => vi.fn());
const post = vi.hoisted(() => vi.fn());
vi.mock('@/lib/api/client', async (actual) => {
  const real = await actual<typeof import('@/lib/api/client')>();
  return { ...real, api: { ...real.api, get, post } };
});

const quiz = {
  quizId: 'A',
  expiresAt: '2030-01-01T00:00:00Z',
  questions: ['q1', 'q2'].map((q) => ({ id: q, text: `¿Pregunta ${q}?`, choices: [{ id: 'c1', text: `Respuesta ${q}` }] })),
};

function show() {
  render(<RouterProvider router={createMemoryRouter([{ path: '/quiz', Component: QuizPage }], { initialEntries: ['/quiz'] })} />);
}

describe('identity quiz in Spanish', () => {
  beforeEach(() => {
    get.mockReset();
    post.mockReset();
    flow.reset();
    withCatalogue([lender('synchrony_standard', 'Synchrony')]);
    flow.set({ providerKey: 'synchrony_standard' });
  });

  it('asks in Spanish, and says in Spanish what is missing and when the questions were renewed', async () => {
    await setLanguage('es');
    get.mockResolvedValue({ result: 'failed', attemptsLeft: 1, passed: false, quiz });
    show();
    expect(await screen.findByRole('heading', { level: 1, name: 'Confirme su identidad' })).toBeTruthy();
    // The heading shows while the questions load; the rest comes with them.
    expect((await screen.findByRole('alert')).textContent).toMatch(/le queda 1 intento más/);
    expect(screen.getByText('Synchrony le hace algunas preguntas cuyas respuestas solo usted debería saber.')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Enviar mis respuestas' }));
    expect(screen.getAllByText('Por favor, elija una respuesta.')).toHaveLength(2);
    expect(post).not.toHaveBeenCalled();
  });

  it('with no attempt left, a calm Spanish screen', async () => {
    await setLanguage('es');
    get.mockResolvedValue({ result: 'failed', attemptsLeft: 0, passed: false });
    show();
    expect(await screen.findByRole('heading', { level: 1, name: 'No pudimos confirmar su identidad aquí' })).toBeTruthy();
    expect(screen.getByText(/Synchrony se comunicará con usted/)).toBeTruthy();
  });

  it('questions that did not come are said in Spanish', async () => {
    await setLanguage('es');
    get.mockRejectedValue(new Error('offline'));
    show();
    expect((await screen.findByRole('alert')).textContent).toBe('No pudimos obtener las preguntas del prestamista. Por favor, inténtelo de nuevo.');
  });
});
