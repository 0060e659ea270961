import { t } from '@/lib/i18n';
import type { ApplyMode, DisclosureKind, WaterfallStep } from '@/lib/api/types';

/** The disclosure a submit in this mode must name: soft pull before a quick check, hard pull before a full application. */
export const kindFor = (mode: ApplyMode): DisclosureKind => (mode === 'full' ? 'application' : 'prequalification');

/** One document the patient must be shown before the app may submit to that lender. */
export interface ConsentTarget {
  providerKey: string;
  applyMode: ApplyMode;
  kind: DisclosureKind;
}

/**
 * autoSubmitChain answers the waterfall steps the app may submit to on its
 * own after the current lender: the steps that follow it while autoSubmit
 * is true. A step without autoSubmit ends the chain (the patient goes there
 * and agrees on that lender's own screen). An unknown current lender
 * answers an empty chain, so nothing is agreed to without being shown.
 */
export function autoSubmitChain(waterfall: readonly WaterfallStep[], currentKey: string): WaterfallStep[] {
  const at = waterfall.findIndex((s) => s.providerKey === currentKey);
  if (at < 0) return [];
  const chain: WaterfallStep[] = [];
  const seen = new Set<string>([currentKey]);
  for (const step of waterfall.slice(at + 1)) {
    if (!step.autoSubmit || seen.has(step.providerKey)) break;
    seen.add(step.providerKey);
    chain.push(step);
  }
  return chain;
}

/**
 * consentTargets answers every document one consent screen shows: the
 * current lender's, then each lender of the auto-submit chain whose
 * authorisation is of the same kind (soft pull with soft pull, hard pull
 * with hard pull: FCRA keeps them separate). The chain stops at the first
 * step of another kind; the cascade then stops there and asks the patient.
 */
export function consentTargets(waterfall: readonly WaterfallStep[], currentKey: string, mode: ApplyMode): ConsentTarget[] {
  const kind = kindFor(mode);
  const out: ConsentTarget[] = [{ providerKey: currentKey, applyMode: mode, kind }];
  for (const step of autoSubmitChain(waterfall, currentKey)) {
    if (kindFor(step.applyMode) !== kind) break;
    out.push({ providerKey: step.providerKey, applyMode: step.applyMode, kind });
  }
  return out;
}

/**
 * joinNames lists names the way people say them, in the app's language:
 * "A, B and C", "A, B y C" (common.list.and). Call it when the words are
 * shown, so they are in the language of that moment.
 */
export function joinNames(names: readonly string[]): string {
  if (names.length <= 1) return names[0] ?? '';
  return t('common.list.and', { rest: names.slice(0, -1).join(', '), last: names[names.length - 1] });
}
