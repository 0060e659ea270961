import type { Decision } from '@/lib/api/types';
import { joinNames } from '@/lib/consent/chain';
import { normalizeCode } from '@/lib/decision';
import { flow, providerName } from '@/stores/flow';

/**
 * What the patient is told about lenders' answers: the waiting words of a
 * submit, the decline wording of the declined screen, and the notices shown
 * on the next lender's screen (by FlowNotice) after a cascade.
 */

/** decisionProgress is the waiting message while a lender decides (docs/behaviour.md, "The waterfall"). */
export function decisionProgress(op: string, lender: string): string {
  return op === 'apply' ? `Sending your application to ${lender}…` : `Checking your options with ${lender}…`;
}

/** declineMessage names every lender that declined, never in wording that could pass for the lender's own notice. */
export function declineMessage(names: readonly string[]): string {
  if (!names.length) return '';
  return `${joinNames(names)} couldn’t approve this application. ${names.length > 1 ? 'Each will' : 'They will'} send you a letter explaining why within 7–10 business days.`;
}

/**
 * What the patient is told before the next lender: every lender that declined
 * in this session, then who in this cascade did not answer or had no offer.
 */
function chainSummary(chain: Decision[]): string[] {
  const named = (code: string) => chain.filter((d) => normalizeCode(d.responseCode) === code).map((d) => providerName(d.providerKey));
  const parts: string[] = [];
  const declined = flow.get().declinedBy.map((k) => providerName(k));
  if (declined.length) parts.push(declineMessage(declined));
  const silent = named('error');
  if (silent.length) parts.push(`We didn’t get an answer from ${joinNames(silent)}.`);
  const nooffer = named('nooffer');
  if (nooffer.length) parts.push(`${joinNames(nooffer)} couldn’t make an offer.`);
  return parts;
}

/** switchNotice explains why the patient now sees another lender. */
export function switchNotice(chain: Decision[], nextProvider: string): string {
  return [...chainSummary(chain), `You can still check your options with ${providerName(nextProvider)}. Your details are already filled in.`].join(
    ' ',
  );
}

/** consentNotice explains why the patient is asked to agree again before the next lender checks. */
export function consentNotice(chain: Decision[], nextProvider: string): string {
  const name = providerName(nextProvider);
  return [...chainSummary(chain), `You can still check your options with ${name}. First, please read what you agree to with ${name} below.`].join(
    ' ',
  );
}
