import { api } from '@/lib/api/client';
import type { ApplyMode, FieldDefinition, StartLenderResponse } from '@/lib/api/types';
import { once } from '@/lib/once';
import { fieldsKey, flow } from '@/stores/flow';

const enc = encodeURIComponent;

/** loadFields gets the field definitions of a lender and mode once (POST apply/start), with the lenders' catalogue. */
export async function loadFields(providerKey: string, mode: ApplyMode): Promise<StartLenderResponse> {
  const key = fieldsKey(providerKey, mode);
  const have = flow.get().fields[key];
  if (have) return have;
  return once(`fields:${key}`, async () => {
    const res = await api.post<StartLenderResponse>(`/apply/start/providers/${enc(providerKey)}`, {}, { query: { mode } });
    flow.fieldsLoaded(key, res);
    if (res.applyMode && res.applyMode !== mode) flow.fieldsLoaded(fieldsKey(providerKey, res.applyMode), res);
    return res;
  });
}

/** ensureFields loads the field definitions unless they are there; a failure is left to the submit, which the server checks anyway. */
export async function ensureFields(providerKey: string, mode: ApplyMode): Promise<void> {
  if (flow.get().fields[fieldsKey(providerKey, mode)]) return;
  await loadFields(providerKey, mode).catch(() => undefined);
}

/** fieldDefs answers the definitions of a lender and mode, or every one loaded when those are not. */
export function fieldDefs(providerKey: string, mode: ApplyMode): FieldDefinition[] {
  return flow.get().fields[fieldsKey(providerKey, mode)]?.fields ?? Object.values(flow.get().fields).flatMap((f) => f.fields);
}
