import { useEffect } from 'react';
import { create } from 'zustand';
import { currentSession, OfficeError, type OfficeSession } from './api/session';

/*
 * Who is signed in at the office, shared by the office's screens so that
 * going from the list to an invitation or an application asks the server
 * nothing new, and any call that answers 401 sends every screen back to
 * the sign-in form. Memory only, like the CSRF token it holds.
 */

export type OfficeAuth = { state: 'checking' } | { state: 'out'; notice: string } | { state: 'in'; session: OfficeSession };

export const SIGNED_OUT_NOTICE = 'You are signed out. Please sign in again.';

const useAuth = create<{ auth: OfficeAuth }>(() => ({ auth: { state: 'checking' } }));

/** generation drops the answer of a check started before the state was set by hand. */
let generation = 0;
let checking = false;

export function words(e: unknown): string {
  return e instanceof Error && e.message ? e.message : 'Something went wrong. Please try again.';
}

function set(auth: OfficeAuth) {
  generation += 1;
  checking = false;
  useAuth.setState({ auth });
}

/** check asks the server who is signed in; one check at a time. */
function check() {
  if (checking) return;
  checking = true;
  const mine = generation;
  currentSession().then(
    (s) => {
      if (mine !== generation) return;
      const before = useAuth.getState().auth;
      set(s ? { state: 'in', session: s } : { state: 'out', notice: before.state === 'out' ? before.notice : '' });
    },
    (e: unknown) => mine === generation && set({ state: 'out', notice: words(e) }),
  );
}

/**
 * useOfficeAuth is the sign-in state. A screen that mounts without a known
 * staff member asks the server (as a reload would): the sign-in form stays
 * meanwhile, and turns into the screen when another tab signed in.
 */
export function useOfficeAuth(): OfficeAuth {
  const auth = useAuth((s) => s.auth);
  useEffect(() => {
    if (useAuth.getState().auth.state !== 'in') check();
  }, []);
  return auth;
}

export const signedIn = (session: OfficeSession) => set({ state: 'in', session });
export const signedOut = (notice = '') => set({ state: 'out', notice });

/** endedBy401 sends every office screen back to the sign-in form when a call answered 401; true when it did. */
export function endedBy401(e: unknown): boolean {
  if (!(e instanceof OfficeError) || e.status !== 401) return false;
  signedOut(SIGNED_OUT_NOTICE);
  return true;
}

/** forgetOfficeSession starts over from "nobody known" (tests, and nothing else). */
export function forgetOfficeSession() {
  set({ state: 'checking' });
}
