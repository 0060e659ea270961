import { create } from 'zustand';
import type { PaymentPlan } from '@/lib/api/types';

/** UI state of the shell: drawers and modals. */
export interface UiState {
  faqOpen: boolean;
  learnHow: PaymentPlan | null;
  cancelOpen: boolean;
  timeoutOpen: boolean;
  timeoutRemainingMs: number;
}

export const useUi = create<UiState>(() => ({
  faqOpen: false,
  learnHow: null,
  cancelOpen: false,
  timeoutOpen: false,
  timeoutRemainingMs: 0,
}));

export const ui = {
  set: (patch: Partial<UiState>) => useUi.setState(patch),
};

/** timerControl lets flow commands steer the session timer owned by the shell. */
export const timerControl = {
  setMinimum: (_ms: number) => undefined as void,
  setTemporary: (_ms: number | null) => undefined as void,
};
