/*
 * What a lender still waits for, in the patient's words (docs/behaviour.md,
 * "Pending, patches and stipulations"): each stipulation with its status —
 * waiting for you, received, done — and what the patient can do about it.
 */

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

export const STATE_WORDS: Record<StipulationState, string> = {
  waiting: 'Waiting for you',
  received: 'Received — the lender is looking at it',
  done: 'Done',
};

/** stipulationAction is what the patient can do about a stipulation still waiting for them; null when nothing. */
export function stipulationAction(type: string, lender: string): string | null {
  switch (type) {
    case 'income':
      return `Tell ${lender} your yearly income before taxes below.`;
    case 'identity_verification':
      return `${lender} may call or write to you to confirm who you are. Have a photo ID ready.`;
    case 'verify_email':
      return `Open the email ${lender} sent you and follow its link.`;
    case 'bank_verification':
      return `${lender} will tell you how to confirm your checking account.`;
    case 'additional_documents_needed':
      return `${lender} will tell you which document to send, such as a pay stub, and how.`;
    case 'esign':
      return `${lender} will send you the agreement to sign.`;
    default:
      return null;
  }
}
