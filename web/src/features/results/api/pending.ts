import { api, lenderPath } from '@/lib/api/client';
import type { Decision, ProviderApplicationState } from '@/lib/api/types';
import { decisionDestination, isPositive, normalizeCode, operationMode, unansweredIn } from '@/lib/decision';
import { lenderRoute } from '@/lib/paths';
import { flow } from '@/stores/flow';

/*
 * A lender still deciding (docs/behaviour.md, "Pending, patches and
 * stipulations"): its status is checked again while the pending screen is
 * open, and a lender that asked for one more piece of information (a
 * patch) gets it from the patch screen.
 */

/** checkStatus asks the server (which asks the lender) where the application stands now. */
export function checkStatus(providerKey: string): Promise<ProviderApplicationState> {
  return api.post<ProviderApplicationState>(lenderPath(providerKey, 'application-status'), {}, { noErrorHandling: true });
}

/**
 * refreshStipulations asks the lender where the stipulations of a pending
 * decision stand now, and keeps what it answers in that decision.
 */
export async function refreshStipulations(providerKey: string): Promise<void> {
  const res = await api.post<{ stipulations: Decision['stipulations'] }>(
    lenderPath(providerKey, 'application/stipulations/refresh'),
    {},
    { noErrorHandling: true },
  );
  const fresh = new Map((res.stipulations ?? []).map((s) => [s.id, s]));
  const r = flow.get().responses[providerKey];
  const merge = (d: Decision) => ({ ...d, stipulations: (d.stipulations ?? []).map((s) => fresh.get(s.id) ?? s) });
  if (r?.apply) flow.response(providerKey, { apply: merge(r.apply) });
  else if (r?.preAuth) flow.response(providerKey, { preAuth: { ...merge(r.preAuth), operation: r.preAuth.operation } });
}

/**
 * recordDecision keeps a lender's new decision where the submit keeps it
 * (the full application's or the quick check's) and answers where it leads,
 * relative to /providers/{providerKey}/, through the usual decision routing.
 */
export function recordDecision(providerKey: string, decision: Decision): string {
  const op = decision.operation ?? flow.get().responses[providerKey]?.preAuth?.operation ?? 'apply';
  const d: Decision = { ...decision, providerKey: decision.providerKey || providerKey };
  if (op === 'apply') flow.response(providerKey, { apply: d, stipulations: d.stipulations ?? [], paymentPlans: undefined });
  else flow.response(providerKey, { preAuth: { ...d, operation: op }, stipulations: d.stipulations ?? [], paymentPlans: undefined });
  if (normalizeCode(d.responseCode) === 'declined' && !flow.get().declinedBy.includes(providerKey)) {
    flow.set({ declinedBy: [...flow.get().declinedBy, providerKey] });
  }
  const mode = operationMode(op);
  const primaryKey = flow.get().primaryLenderKey ?? providerKey;
  const dest = decisionDestination(d, {
    mode,
    preAuth: mode !== 'full',
    primarySupportsFull: Boolean(flow.get().lenders[primaryKey]?.supportsFullAppMode),
    unanswered: unansweredIn(flow.get().responses),
  });
  return dest ?? (isPositive(d.responseCode) ? 'paymentPlans' : 'pending');
}

/** The patch types the patch screen knows, with the field each sends. */
export const PATCH_FIELDS: Readonly<Record<string, string>> = { income: 'annualGrossIncome' };

/**
 * The body of the patch the patient confirmed, kept in memory only for the
 * transient patchSubmit route that sends it (never in browser storage): a
 * refresh there goes back to the form.
 */
let pendingPatch: { providerKey: string; patchType: string; body: Record<string, number> } | null = null;

export function setPendingPatch(providerKey: string, patchType: string, body: Record<string, number>): void {
  pendingPatch = { providerKey, patchType, body };
}

/**
 * submitPatch sends the patch waiting in memory (patchSubmit) and answers
 * where its answer leads: patchSuccessful (the plans) when the lender now
 * makes an offer, otherwise the usual routing of its decision.
 */
export async function submitPatch(): Promise<string> {
  const p = pendingPatch;
  const providerKey = flow.get().providerKey ?? '';
  if (!p || p.providerKey !== providerKey) return lenderRoute(providerKey, 'patch/income');
  const pa = await api.post<ProviderApplicationState>(lenderPath(p.providerKey, `patch/${encodeURIComponent(p.patchType)}`), p.body, {
    lenderStep: true,
  });
  pendingPatch = null;
  const decision = pa.decision as Decision | undefined;
  if (!decision) return lenderRoute(providerKey, 'pending');
  const dest = recordDecision(providerKey, decision);
  return lenderRoute(providerKey, isPositive(decision.responseCode) ? 'patchSuccessful' : dest);
}
