import { useCallback, useState, type ReactNode } from 'react';
import { Button } from '@/components/Button';
import { Modal } from '@/components/Modal';
import { withProgress } from '@/flow/progress';
import { useT } from '@/lib/i18n';
import { useWording } from '@/lib/wording';

/*
 * The recalculate dialog (docs/behaviour.md, "Plans and offers"): a lender
 * whose catalogue entry asks for it (paymentCalculatorRecalculatingModal)
 * has a new estimator amount priced behind a short dialog, announced to
 * screen readers, which closes itself when the plans arrive and says so
 * when they do not. Other lenders keep the page's waiting message.
 */

type State = { kind: 'idle' } | { kind: 'busy'; message: string } | { kind: 'failed' };

/** RecalculatingDialog is the dialog itself: busy with the waiting message, or the failure with Close. */
export function RecalculatingDialog({ message, failed, onClose }: { message?: string; failed: boolean; onClose: () => void }) {
  const t = useT();
  const { staff } = useWording();
  if (failed) {
    return (
      <Modal title={t('modals.recalculating.failedTitle')} onClose={onClose}>
        <p role="alert">{t('modals.recalculating.failed', { staff })}</p>
        <div className="actions">
          <Button autoFocus onClick={onClose}>
            {t('modals.recalculating.close')}
          </Button>
        </div>
      </Modal>
    );
  }
  return (
    <Modal title={t('modals.recalculating.title')} onClose={onClose}>
      <div className="spinner" aria-hidden="true" />
      <p role="status" aria-live="polite">
        {message}
      </p>
    </Modal>
  );
}

/**
 * useRecalculating answers run, which prices plans (fn) behind the dialog
 * when enabled — else behind the page's waiting message (withProgress) — and
 * passes fn's answer or error on; and the dialog to render.
 */
export function useRecalculating(enabled: boolean): {
  run: <T>(message: string, fn: () => Promise<T>) => Promise<T>;
  dialog: ReactNode;
} {
  const [state, setState] = useState<State>({ kind: 'idle' });
  const run = useCallback(
    async <T,>(message: string, fn: () => Promise<T>): Promise<T> => {
      if (!enabled) return withProgress(message, fn);
      setState({ kind: 'busy', message });
      try {
        const answer = await fn();
        setState({ kind: 'idle' });
        return answer;
      } catch (e) {
        setState({ kind: 'failed' });
        throw e;
      }
    },
    [enabled],
  );
  const close = () => setState({ kind: 'idle' });
  // A new key when it fails: the failure opens as a dialog of its own, announced by its title.
  const dialog =
    state.kind === 'idle' ? null : (
      <RecalculatingDialog
        key={state.kind}
        failed={state.kind === 'failed'}
        message={state.kind === 'busy' ? state.message : undefined}
        onClose={close}
      />
    );
  return { run, dialog };
}
