import { api } from '@/lib/api/client';
import type { ApplyMode, StartFlowResponse } from '@/lib/api/types';
import { providerRoute } from '@/lib/paths';
import { flow } from '@/stores/flow';

const enc = encodeURIComponent;

/**
 * startFlow begins a session from an entity key or a flow token and answers
 * where to go: the first lender's start route, whose loader (app/routes.tsx)
 * fetches the form's fields while the screen's code loads.
 */
export async function startFlow(kind: 'entity-keys' | 'tokens', value: string): Promise<string> {
  flow.reset();
  const res = await api.post<StartFlowResponse>(`/flow/start/${kind}/${enc(value)}`, {});
  const mode: ApplyMode = res.session.properties?.applyMode ?? 'prequalify';
  flow.started(res, mode);
  return providerRoute(res.session.dynamicProviderKey, `modes/${mode}/start`);
}
