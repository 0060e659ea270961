import { api } from '@/lib/api/client';
import { startBody, startPath } from '@/lib/api/early';
import type { StartFlowResponse } from '@/lib/api/types';
import { enterSession } from '@/flow/start';
import { flow } from '@/stores/flow';

/**
 * startFlow begins a session from an entity key or a flow token and answers
 * where to go: the first lender's start route, whose loader (app/routes.tsx)
 * fetches the form's fields while the screen's code loads.
 */
export async function startFlow(kind: 'entity-keys' | 'tokens', value: string): Promise<string> {
  flow.reset();
  const res = await api.post<StartFlowResponse>(startPath(kind, value), startBody());
  return enterSession(res);
}
