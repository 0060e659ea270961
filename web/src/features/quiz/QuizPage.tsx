import { useEffect, useState } from 'react';
import { Page } from '@/components/Page';
import { Button } from '@/components/Button';
import { useFlowNavigate } from '@/flow/navigation';
import { withProgress } from '@/flow/progress';
import { api, ApiError, lenderPath } from '@/lib/api/client';
import type { components } from '@/lib/api/schema';
import { useT } from '@/lib/i18n';
import { afterStep } from '@/lib/lenderSteps';
import { useFlow, useLenderName } from '@/stores/flow';
import { Failure } from '@/components/Failure';

/*
 * The identity quiz (docs/behaviour.md, "The identity quiz"): a lender that
 * asked for it shows its questions after accepting and before signing. The
 * server keeps the attempt count; this screen shows what it answers — the
 * questions, "Quiz failed, you have 1 more attempt" with fresh ones, or,
 * with no attempt left, a calm word that the lender will be in touch.
 */

type QuizView = components['schemas']['QuizView'];

/** quizRequired reports whether a lender's decision asks for the identity quiz. */
export function quizRequired(stipulations: { type: string }[] | undefined): boolean {
  return (stipulations ?? []).some((s) => s.type === 'identity_quiz');
}

export function QuizPage() {
  const t = useT();
  const navigate = useFlowNavigate();
  const providerKey = useFlow((s) => s.providerKey) ?? '';
  const lender = useLenderName(providerKey);
  const [view, setView] = useState<QuizView | null>(null);
  const [answers, setAnswers] = useState<Record<string, string>>({});
  const [missing, setMissing] = useState(false);
  const [failure, setFailure] = useState('');
  // The questions did not come: said at render, so it follows the language.
  const [loadFailed, setLoadFailed] = useState(false);

  // Passed: on to the lender's next open step, or signing (docs/behaviour.md, "Signing").
  const next = () => void afterStep(providerKey).then((to) => navigate(to));

  useEffect(() => {
    let live = true;
    api
      .get<QuizView>(lenderPath(providerKey, 'quiz'), { noErrorHandling: true })
      .then((v) => {
        if (live) setView(v);
      })
      .catch(() => {
        if (live) setLoadFailed(true);
      });
    return () => {
      live = false;
    };
  }, [providerKey]);

  useEffect(() => {
    if (view?.passed) next();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [view?.passed]);

  async function send() {
    const quiz = view?.quiz;
    if (!quiz) return;
    if (quiz.questions.some((q) => !answers[q.id])) {
      setMissing(true);
      return;
    }
    setMissing(false);
    setFailure('');
    try {
      const v = await withProgress(t('quiz.progress', { lender }), () =>
        api.post<QuizView>(lenderPath(providerKey, 'answers'), { quizId: quiz.quizId, answers }, { lenderStep: true, noErrorHandling: true }),
      );
      setAnswers({});
      setView(v);
    } catch (err) {
      setFailure(err instanceof ApiError ? err.message : t('quiz.failed'));
    }
  }

  if (view && !view.passed && view.attemptsLeft === 0) {
    return (
      <div className="card">
        <Page title={t('quiz.noAttemptsTitle')}>
          <p>{t('quiz.noAttempts', { lender })}</p>
        </Page>
      </div>
    );
  }

  const quiz = view?.quiz;
  return (
    <div className="card">
      <Page title={t('quiz.title')} lead={t('quiz.lead', { lender })}>
        {view?.result === 'failed' ? (
          <p className="notice notice--warn" role="alert">
            {t('quiz.retry')}
          </p>
        ) : null}
        {view?.result === 'expired' ? (
          <p className="notice" role="status">
            {t('quiz.expired')}
          </p>
        ) : null}
        {quiz ? (
          <form
            noValidate
            onSubmit={(e) => {
              e.preventDefault();
              void send();
            }}
          >
            {quiz.questions.map((q) => (
              <fieldset key={`${quiz.quizId}-${q.id}`} className={`field form-section${missing && !answers[q.id] ? ' field--error' : ''}`}>
                <legend className="label">{q.text}</legend>
                <div className="radios">
                  {q.choices.map((c) => {
                    const id = `${q.id}-${c.id}`;
                    return (
                      <label key={id} htmlFor={id}>
                        <input
                          id={id}
                          type="radio"
                          name={q.id}
                          checked={answers[q.id] === c.id}
                          onChange={() => setAnswers((a) => ({ ...a, [q.id]: c.id }))}
                        />{' '}
                        {c.text}
                      </label>
                    );
                  })}
                </div>
                {missing && !answers[q.id] ? <span className="error-text">{t('quiz.chooseAnswer')}</span> : null}
              </fieldset>
            ))}
            <Failure message={failure} />
            <div className="actions">
              <Button type="submit">{t('quiz.send')}</Button>
            </div>
          </form>
        ) : loadFailed ? (
          <p className="notice notice--warn" role="alert">
            {t('quiz.loadFailed')}
          </p>
        ) : (
          <p role="status">{t('quiz.loading')}</p>
        )}
      </Page>
    </div>
  );
}
