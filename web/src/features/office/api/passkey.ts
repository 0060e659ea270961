import type { components } from '@/lib/api/schema';
import { officeCall as call } from './http';
import type { OfficeSession } from './session';

/*
 * Passkeys (docs/behaviour.md, "Two-step sign-in"): each ceremony is a begin call
 * answering options for navigator.credentials, then the browser's answer.
 * The browser does the WebAuthn work itself: options are read with
 * PublicKeyCredential.parse…OptionsFromJSON and answered with toJSON(), so
 * no byte juggling happens here.
 */

type Options = components['responses']['OfficePasskeyOptions']['content']['application/json'];

/** passkeysHere says this browser has passkeys and this page's address can hold one (a name, never 127.0.0.1). */
export function passkeysHere(): boolean {
  const pkc = globalThis.PublicKeyCredential as (typeof PublicKeyCredential & { parseRequestOptionsFromJSON?: unknown }) | undefined;
  const host = globalThis.location?.hostname ?? '';
  return typeof pkc?.parseRequestOptionsFromJSON === 'function' && !/^[\d.]+$|:/.test(host);
}

/** PasskeyCancelled: the person closed the browser's passkey window. */
export class PasskeyCancelled extends Error {
  constructor() {
    super('No passkey was used. Try again, or use your password and code.');
  }
}

async function answer(kind: 'create' | 'get', o: Options): Promise<unknown> {
  const options = o.options as never;
  try {
    const cred =
      kind === 'create'
        ? await navigator.credentials.create({ publicKey: PublicKeyCredential.parseCreationOptionsFromJSON(options) })
        : await navigator.credentials.get({ publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(options) });
    if (!cred) throw new PasskeyCancelled();
    return (cred as PublicKeyCredential).toJSON();
  } catch (e) {
    if (e instanceof DOMException && (e.name === 'NotAllowedError' || e.name === 'AbortError')) throw new PasskeyCancelled();
    throw e;
  }
}

/** signInWithPasskey signs in with a passkey alone; the session answered is past its second step. */
export async function signInWithPasskey(): Promise<OfficeSession> {
  const o = (await call<Options>('POST', '/office/session/passkey/begin'))!;
  const credential = await answer('get', o);
  return (await call<OfficeSession>('POST', '/office/session/passkey', { ceremonyId: o.ceremonyId, credential }))!;
}

/** passWithPasskey answers the second step with one of the account's passkeys. */
export async function passWithPasskey(csrf: string): Promise<OfficeSession> {
  const o = (await call<Options>('POST', '/office/session/second-factor/passkey/begin', undefined, csrf))!;
  const credential = await answer('get', o);
  return (await call<OfficeSession>('POST', '/office/session/second-factor/passkey', { ceremonyId: o.ceremonyId, credential }, csrf))!;
}

/** addPasskey adds a passkey to the account; the recovery codes answered are empty unless it is the first second factor. */
export async function addPasskey(csrf: string): Promise<string[]> {
  const o = (await call<Options>('POST', '/office/passkeys/begin', undefined, csrf))!;
  const credential = await answer('create', o);
  return (await call<{ codes: string[] }>('POST', '/office/passkeys', { ceremonyId: o.ceremonyId, credential }, csrf))!.codes;
}
