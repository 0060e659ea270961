import { act } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';
import { json } from '@/test/fetch';
import type { OfficeApplication, OfficeApplicationList } from './api/applications';
import type { OfficeSession } from './api/session';
import { forgetOfficeSession } from './auth';

/*
 * Test helpers of the office's screens: a fetch that answers by
 * "METHOD path" and records what was sent, a session, rows, and an
 * EventSource the test drives.
 */

export interface Sent {
  method: string;
  path: string;
  query: URLSearchParams;
  body?: string;
  csrf?: string;
  /** key is the Idempotency-Key sent, if any. */
  key?: string;
}

export const session: OfficeSession = {
  staff: { email: 'desk@brightsmiles.example', role: 'front_desk', secondFactor: true },
  stage: 'ready',
  permissions: ['see_day'],
  passkeys: false,
  offices: [],
  office: {
    name: 'Bright Smiles Dental',
    entityKey: '1234567890123456',
    messagesDelivered: true,
    textsDelivered: true,
    emailsDelivered: true,
    language: 'en',
  },
  csrfToken: 'csrf-1',
};

/** manager is an office manager's session, who may manage the staff and read the audit log. */
export const manager: OfficeSession = {
  ...session,
  staff: { email: 'maria@brightsmiles.example', role: 'manager', secondFactor: true },
  permissions: ['see_day', 'manage_staff', 'change_cases'],
};

/** groupAdmin is a group administrator's session, with the group's two offices to choose from. */
export const groupAdmin: OfficeSession = {
  ...session,
  staff: { email: 'gus@smilesgroup.example', role: 'group_admin', secondFactor: true },
  permissions: ['see_day', 'manage_staff', 'change_cases', 'switch_office'],
  offices: [
    { name: 'Bright Smiles Dental', entityKey: '1234567890123456' },
    { name: 'Bright Smiles Uptown', entityKey: '6543210987654321' },
  ],
};

/** halfway is a session past the password whose second step is still to come. */
export const halfway = (stage: OfficeSession['stage'], over: Partial<OfficeSession['staff']> = {}): OfficeSession => ({
  ...session,
  stage,
  permissions: [],
  offices: [],
  staff: { ...session.staff, secondFactor: stage === 'second_factor', ...over },
});

export const signedOut401 = () => json({ code: 'session_invalid', message: 'You are signed out. Please sign in again.' }, 401);

/** stubOffice answers office calls by "METHOD path" (no query), each from its own list (the last repeats); others 404. */
export function stubOffice(table: Record<string, (Response | (() => Response))[]>): Sent[] {
  const sent: Sent[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const u = new URL(url, 'http://x');
      const method = init?.method ?? 'GET';
      const path = u.pathname.replace('/api/v1', '');
      const headers = (init?.headers ?? {}) as Record<string, string>;
      sent.push({
        method,
        path,
        query: u.searchParams,
        body: init?.body as string | undefined,
        csrf: headers['X-CSRF-Token'],
        key: headers['Idempotency-Key'],
      });
      const list = table[`${method} ${path}`];
      if (!list) return json({ code: 'resource_not_found', message: 'Not found.' }, 404);
      const next = list.length > 1 ? list.shift()! : list[0]!;
      return typeof next === 'function' ? next() : next.clone();
    }),
  );
  return sent;
}

/** row is an application of the day, with what a test changes. */
export function row(over: Partial<OfficeApplication> = {}): OfficeApplication {
  return {
    id: 'app-1',
    kind: 'application',
    status: 'in_progress',
    firstName: 'Ann',
    lastName: 'Approve',
    purchaseAmountCents: 320_000,
    experienceType: 'in_store',
    createdAt: '2030-01-02T15:04:00Z',
    updatedAt: '2030-01-02T15:10:00Z',
    lenders: [],
    signed: false,
    completed: false,
    ...over,
  };
}

export const list = (applications: OfficeApplication[], day = '2030-01-02'): OfficeApplicationList => ({ day, timeZone: 'UTC', applications });

/** FakeEventSource stands in for the browser's: the test sends its events and its failure. */
export class FakeEventSource {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 2;
  static all: FakeEventSource[] = [];
  readonly url: string;
  readyState = FakeEventSource.CONNECTING;
  onerror: ((ev: Event) => void) | null = null;
  private listeners = new Map<string, ((ev: MessageEvent) => void)[]>();

  constructor(url: string) {
    this.url = url;
    FakeEventSource.all.push(this);
  }
  addEventListener(type: string, fn: (ev: MessageEvent) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), fn]);
  }
  close() {
    this.readyState = FakeEventSource.CLOSED;
  }
  /** send delivers an `applications` event, as the server does at once and on every change. */
  send(data: OfficeApplicationList) {
    this.readyState = FakeEventSource.OPEN;
    act(() => {
      for (const fn of this.listeners.get('applications') ?? []) fn(new MessageEvent('applications', { data: JSON.stringify(data) }));
    });
  }
  /** signOut is the server's last word on a stream whose staff session ended. */
  signOut() {
    act(() => {
      for (const fn of this.listeners.get('signed_out') ?? []) fn(new MessageEvent('signed_out', { data: '{}' }));
    });
  }
  /** fail is the browser giving up (a refused reconnection): CLOSED, then error. */
  fail() {
    this.readyState = FakeEventSource.CLOSED;
    act(() => this.onerror?.(new Event('error')));
  }
  get query(): URLSearchParams {
    return new URL(this.url, 'http://x').searchParams;
  }
  static latest(): FakeEventSource {
    return FakeEventSource.all[FakeEventSource.all.length - 1]!;
  }
}

/** liveListsFaked gives each test of the file a fake EventSource and nobody signed in, and puts both back after it. */
export function liveListsFaked() {
  beforeEach(() => {
    FakeEventSource.all = [];
    vi.stubGlobal('EventSource', FakeEventSource);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    forgetOfficeSession();
  });
}
