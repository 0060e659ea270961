import { createHmac } from 'node:crypto';

/*
 * What an authenticator app shows (RFC 6238 with RFC 4226's truncation:
 * HMAC-SHA1, 30-second steps, six digits), so that browser tests can set up
 * and pass two-step sign-in as a person with a phone would.
 */

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** base32 decodes an authenticator key as shown (dashes and spaces allowed). */
function base32(key: string): Buffer {
  const clean = key.replace(/[\s-]/g, '').toUpperCase().replace(/=+$/, '');
  let bits = '';
  for (const ch of clean) {
    const v = ALPHABET.indexOf(ch);
    if (v < 0) throw new Error(`not a base32 key: ${key}`);
    bits += v.toString(2).padStart(5, '0');
  }
  const bytes: number[] = [];
  for (let i = 0; i + 8 <= bits.length; i += 8) bytes.push(parseInt(bits.slice(i, i + 8), 2));
  return Buffer.from(bytes);
}

/** totp is the code for key at the time `at` (milliseconds), or for a step counted from now. */
export function totp(key: string, at = Date.now()): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(at / 1000 / 30)));
  const mac = createHmac('sha1', base32(key)).update(counter).digest();
  const off = mac[mac.length - 1]! & 0x0f;
  const n = (mac.readUInt32BE(off) & 0x7fffffff) % 1_000_000;
  return String(n).padStart(6, '0');
}
