import { useCallback, useEffect, useRef, useState } from 'react';
import { listApplications, streamUrl, type OfficeApplication, type OfficeApplicationList } from './api/applications';
import { endedBy401, SIGNED_OUT_NOTICE, signedOut } from './auth';

/*
 * The day's list, kept up to date without a reload (api/openapi.yaml,
 * /office/applications/stream). An EventSource gets an `applications`
 * event at once and on every change; while the connection drops the
 * browser reconnects by itself. When the browser has no EventSource, or
 * gives up on it (readyState CLOSED: a refused reconnection, such as a 401
 * once the staff session ended), the list is fetched every 5 seconds
 * instead, skipping while the tab is hidden; a 401 there sends the screen
 * back to the sign-in form. Changing the filters or leaving the screen
 * closes the stream and stops the polling.
 */

export const POLL_MS = 5_000;

export const REFRESH_FAILED = 'We could not refresh the list. We will keep trying.';

export interface Feed {
  /** The rows of the current filters, newest first; null until they arrive. */
  rows: OfficeApplication[] | null;
  failure: string;
  /** Counts the changes seen after the first list, for the "List updated" announcement. */
  updates: number;
  /** refresh asks again at once when polling (the stream pushes a change by itself). */
  refresh: () => void;
}

export function useApplicationsFeed(qs: string): Feed {
  const [data, setData] = useState<{ qs: string; rows: OfficeApplication[] } | null>(null);
  const [failure, setFailure] = useState('');
  const [updates, setUpdates] = useState(0);
  // The last list shown, as JSON: an identical push changes nothing and announces nothing.
  const last = useRef<string | null>(null);
  const refreshRef = useRef<() => void>(() => undefined);

  useEffect(() => {
    let live = true;
    let source: EventSource | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let polling = false;
    let inFlight = false;
    let again = false;

    const accept = (list: OfficeApplicationList) => {
      if (!live) return;
      setFailure('');
      const json = JSON.stringify(list.applications);
      if (json === last.current) {
        setData((d) => (d?.qs === qs ? d : { qs, rows: list.applications }));
        return;
      }
      if (last.current !== null) setUpdates((n) => n + 1);
      last.current = json;
      setData({ qs, rows: list.applications });
    };

    const onVisible = () => {
      if (document.hidden) return;
      document.removeEventListener('visibilitychange', onVisible);
      void poll();
    };

    const poll = async () => {
      clearTimeout(timer);
      timer = undefined;
      if (!live) return;
      if (inFlight) {
        again = true;
        return;
      }
      if (document.hidden) {
        document.addEventListener('visibilitychange', onVisible);
        return;
      }
      inFlight = true;
      try {
        accept(await listApplications(qs));
      } catch (e) {
        if (!live || endedBy401(e)) return;
        setFailure(REFRESH_FAILED);
      } finally {
        inFlight = false;
      }
      if (!live) return;
      if (again) {
        again = false;
        void poll();
      } else timer = setTimeout(() => void poll(), POLL_MS);
    };

    const startPolling = () => {
      if (polling || !live) return;
      polling = true;
      source?.close();
      source = null;
      void poll();
    };

    if (typeof EventSource === 'function') {
      const es = new EventSource(streamUrl(qs));
      source = es;
      es.addEventListener('applications', (ev) => {
        try {
          accept(JSON.parse((ev as MessageEvent<string>).data) as OfficeApplicationList);
        } catch {
          // A garbled event: the next one (or the polling) brings the list again.
        }
      });
      // The server says so before it closes a stream whose session ended.
      es.addEventListener('signed_out', () => {
        es.close();
        signedOut(SIGNED_OUT_NOTICE);
      });
      es.onerror = () => {
        if (es.readyState === EventSource.CLOSED) startPolling();
      };
    } else startPolling();

    refreshRef.current = () => {
      if (polling) void poll();
    };
    return () => {
      live = false;
      source?.close();
      clearTimeout(timer);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [qs]);

  const refresh = useCallback(() => refreshRef.current(), []);
  return { rows: data?.qs === qs ? data.rows : null, failure, updates, refresh };
}
