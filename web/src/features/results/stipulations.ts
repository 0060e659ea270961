/*
 * What a lender still waits for, in the patient's words (docs/behaviour.md,
 * "Pending, patches and stipulations"): each stipulation with its status —
 * waiting for you, received, done — and what the patient can do about it.
 * The words are the results.stipulation messages, looked up when read.
 */

import { t } from '@/lib/i18n';

export type StipulationState = 'waiting' | 'received' | 'done';

export interface StipulationLike {
  id: string;
  type: string;
  description?: string;
  status?: string;
  state?: StipulationState;
}

/**
 * stipulationState is the state the server read from the lender's word (its
 * one rule, flow/stipulation.go); without one, nothing more than waiting is
 * claimed.
 */
export function stipulationState(s: Pick<StipulationLike, 'state'>): StipulationState {
  return s.state === 'received' || s.state === 'done' ? s.state : 'waiting';
}

/** STATE_WORDS names each state in the language shown when it is read (getters: never a word fixed at load). */
export const STATE_WORDS: Readonly<Record<StipulationState, string>> = {
  get waiting() {
    return t('results.stipulation.state.waiting');
  },
  get received() {
    return t('results.stipulation.state.received');
  },
  get done() {
    return t('results.stipulation.state.done');
  },
};

/** The stipulation types the patient can do something about (results.stipulation.action). */
const ACTIONS = ['income', 'identity_verification', 'verify_email', 'bank_verification', 'additional_documents_needed', 'esign'] as const;
type ActionType = (typeof ACTIONS)[number];
const hasAction = (type: string): type is ActionType => (ACTIONS as readonly string[]).includes(type);

/** stipulationAction is what the patient can do about a stipulation still waiting for them; null when nothing. */
export function stipulationAction(type: string, lender: string): string | null {
  return hasAction(type) ? t(`results.stipulation.action.${type}`, { lender }) : null;
}
