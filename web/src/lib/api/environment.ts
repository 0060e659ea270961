import type { ApplicantType, FieldError } from './types';

/*
 * The hooks the app plugs into the API client (app/wire.ts), kept apart from
 * the client (client.ts): the app wires them up as it starts, and the idle
 * screen it starts on makes no call, so the client's code comes with the
 * first screen that does.
 */

export interface ValidationState {
  providerKey: string;
  resubmitRoute: string;
  invalidApplicants: ApplicantType[];
  fieldErrors: FieldError[];
}

/** Hooks the app plugs in: where the session id lives and how to navigate. */
export interface ApiEnvironment {
  getSessionId(): string | null | undefined;
  navigate(to: string, replace?: boolean): void;
  onValidation(state: ValidationState): void;
  currentPath(): string;
}

let env: ApiEnvironment = {
  getSessionId: () => null,
  navigate: () => undefined,
  onValidation: () => undefined,
  currentPath: () => '/',
};

export function configureApi(next: ApiEnvironment): void {
  env = next;
}

/** apiEnvironment answers the hooks in force, read at each call. */
export function apiEnvironment(): ApiEnvironment {
  return env;
}
