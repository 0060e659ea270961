import { stepList, stepStates, type StepFlow } from '@/lib/steps';
import type { RouteHandle } from '@/flow/navigation';
import { useFlow } from '@/stores/flow';
import { useT } from '@/lib/i18n';

/** The mark of a step done, in place of its number: a sign, not a word (the visually hidden text says it). */
const DONE_MARK = '✓';

/** Stepper shows where the patient is; under 960px it collapses to "Step 2 of 4 — Payment options". */
export function Stepper({ handle }: { handle: RouteHandle }) {
  const mode = useFlow((s) => s.applyMode);
  const joint = useFlow((s) => s.jointEnabled);
  const t = useT();
  const flowName: StepFlow = handle.stepFlow ?? mode;
  const steps = stepList(flowName, joint);
  const current = typeof handle.step === 'function' ? handle.step(mode) : handle.step;
  const views = stepStates(steps, current);
  const idx = Math.max(
    0,
    views.findIndex((v) => v.status === 'current'),
  );
  const cur = views[idx];
  return (
    <nav className="stepper" aria-label={t('common.steps.label')}>
      <ol>
        {views.map((v, i) => (
          <li key={v.id} data-status={v.done ? 'complete' : v.status} aria-current={v.status === 'current' ? 'step' : undefined}>
            <span className="dot" aria-hidden="true">
              {v.done ? DONE_MARK : i + 1}
            </span>
            <span>
              {v.label}
              <span className="visually-hidden">
                {v.done ? t('common.steps.completed') : v.status === 'current' ? t('common.steps.current') : ''}
              </span>
            </span>
          </li>
        ))}
      </ol>
      <div className="stepper__narrow" aria-hidden="true">
        {t('common.steps.narrow', { n: idx + 1, total: views.length, label: cur?.label ?? '' })}
        <div className="stepper__bar">
          <span style={{ width: `${((idx + 1) / views.length) * 100}%` }} />
        </div>
      </div>
    </nav>
  );
}

/**
 * StepperOutline takes the stepper's place, at its height, before the steps are known: the
 * white band without its steps. A link's page draws the same outline before the app has
 * loaded (lib/firstWords.ts, paintFirstWords), so the heading below it never moves.
 */
export function StepperOutline() {
  return (
    <nav className="stepper stepper--outline" aria-hidden="true">
      <ol>
        <li>
          <span className="dot" />
        </li>
      </ol>
      <div className="stepper__narrow">
        {'\u00a0'}
        <div className="stepper__bar" />
      </div>
    </nav>
  );
}
