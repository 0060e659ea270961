import { useCallback } from 'react';
import { useMatches, useNavigate } from 'react-router';
import type { StepFlow, StepId } from '@/lib/steps';

/** Route meta (docs/behaviour.md, "Routes"), kept on each route's `handle`. */
export interface RouteHandle {
  /** Reachable without a session. */
  public?: boolean;
  /** Stepper hidden. */
  hideStepper?: boolean;
  /** The step this screen belongs to. */
  step?: StepId | ((mode: string) => StepId);
  /** Step list override (the no-offer flow). */
  stepFlow?: StepFlow;
  /** Transient routes are replaced, never left in history. */
  transient?: boolean;
  /** providerKey param does not switch the current lender. */
  disableSwitch?: boolean;
  /** No floating Help button (the top-bar Help stays): screens where it could cover the signature pad. */
  hideHelpButton?: boolean;
  /** staff marks the office's own screens: the brand leads to /office, and the patients' help and footer words are left out. */
  staff?: boolean;
}

export function useRouteHandle(): RouteHandle {
  const matches = useMatches();
  const merged: RouteHandle = {};
  for (const m of matches) Object.assign(merged, (m.handle as RouteHandle | undefined) ?? {});
  return merged;
}

/** useFlowNavigate replaces the history entry when leaving a transient route (docs/behaviour.md, "Routes"). */
export function useFlowNavigate(): (to: string, opts?: { replace?: boolean }) => void {
  const navigate = useNavigate();
  const handle = useRouteHandle();
  return useCallback(
    (to: string, opts?: { replace?: boolean }) => {
      void navigate(to, { replace: opts?.replace ?? Boolean(handle.transient) });
    },
    [navigate, handle.transient],
  );
}
