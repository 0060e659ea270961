import { describe, expect, it } from 'vitest';
import { hasInk, isSignatureValid, pngByteLength, SIGNATURE_MAX_BYTES, signatureProblem, signatureValue, toBlackAndWhite } from './signature';

/** A data:image/png;base64 URL whose payload decodes to exactly n bytes. */
function pngOfBytes(n: number): string {
  return 'data:image/png;base64,' + Buffer.alloc(n, 7).toString('base64');
}

describe('pngByteLength: the decoded size, as the server counts it', () => {
  it('counts three bytes per four characters, less the padding', () => {
    expect(pngByteLength(pngOfBytes(3000))).toBe(3000); // no padding
    expect(pngByteLength(pngOfBytes(3001))).toBe(3001); // "=="
    expect(pngByteLength(pngOfBytes(3002))).toBe(3002); // "="
    expect(pngOfBytes(3001).endsWith('==')).toBe(true);
    expect(pngOfBytes(3002).endsWith('=') && !pngOfBytes(3002).endsWith('==')).toBe(true);
  });

  it('answers 0 for anything the server could not decode as a PNG data URL', () => {
    expect(pngByteLength('')).toBe(0);
    expect(pngByteLength(null)).toBe(0);
    expect(pngByteLength('data:image/jpeg;base64,' + Buffer.alloc(4000).toString('base64'))).toBe(0);
    expect(pngByteLength('data:image/png;base64,abc')).toBe(0); // not a multiple of 4
    expect(pngByteLength('data:image/png;base64,ab$d')).toBe(0);
  });
});

describe('isSignatureValid: more than 3000 bytes, at most 512 KiB', () => {
  it('is judged at the boundaries on decoded bytes, not on the length of the text', () => {
    expect(isSignatureValid(pngOfBytes(3000))).toBe(false);
    expect(isSignatureValid(pngOfBytes(3001))).toBe(true);
    expect(isSignatureValid(pngOfBytes(SIGNATURE_MAX_BYTES))).toBe(true);
    expect(isSignatureValid(pngOfBytes(SIGNATURE_MAX_BYTES + 1))).toBe(false);
    // 2400 bytes are 3200 characters of base64: the old rule (text length > 3000) let it through.
    expect(pngOfBytes(2400).length).toBeGreaterThan(3000);
    expect(isSignatureValid(pngOfBytes(2400))).toBe(false);
  });

  it('names the problem', () => {
    expect(signatureProblem('')).toBe('empty');
    expect(signatureProblem(pngOfBytes(10))).toBe('tooSmall');
    expect(signatureProblem(pngOfBytes(SIGNATURE_MAX_BYTES + 1))).toBe('tooLarge');
    expect(signatureProblem(pngOfBytes(5000))).toBeNull();
  });

  it('signatureValue judges and keeps the very data URL that is sent', () => {
    const png = pngOfBytes(3001);
    expect(signatureValue(png, true)).toEqual({ valid: true, problem: null, png, method: 'drawn' });
    expect(signatureValue(pngOfBytes(3000), true)).toMatchObject({ valid: false, problem: 'tooSmall' });
  });
});

describe('hasInk: the same ink rule as the server (flow/consent.go signatureInk)', () => {
  /** A 600×140 pad after toBlackAndWhite, with ink where mark says. */
  const pad = (mark: (set: (x: number, y: number) => void) => void) => {
    const w = 600,
      h = 140;
    const data = new Uint8ClampedArray(w * h * 4); // transparent: no ink
    mark((x, y) => {
      data[(y * w + x) * 4 + 3] = 255; // the pen's alpha
    });
    toBlackAndWhite(data);
    return hasInk(data, w, h);
  };
  const line = (set: (x: number, y: number) => void, x0: number, x1: number, y: number) => {
    for (let x = x0; x < x1; x++) set(x, y);
  };

  it('refuses an empty pad, a tap, scattered taps and a short stroke', () => {
    expect(pad(() => undefined)).toBe(false);
    expect(pad((set) => [0, 1, 2, 3].forEach((dy) => line(set, 300, 304, 70 + dy)))).toBe(false);
    expect(pad((set) => (line(set, 100, 103, 70), line(set, 400, 403, 70)))).toBe(false);
    expect(pad((set) => line(set, 100, 150, 70))).toBe(false);
  });

  it('accepts a stroke across a tenth of the pad, and a signature', () => {
    expect(pad((set) => line(set, 100, 160, 70))).toBe(true);
    expect(pad((set) => [50, 58, 66, 74, 82].forEach((y) => line(set, 80, 420, y)))).toBe(true);
  });

  it('a PNG with bytes enough but no mark is too small; the byte rule still has the last word', () => {
    const big = pngOfBytes(3800);
    expect(signatureValue(big, false)).toMatchObject({ valid: false, problem: 'tooSmall', png: big });
    expect(signatureValue(big, true).valid).toBe(true);
    expect(signatureValue(pngOfBytes(3000), true)).toMatchObject({ valid: false, problem: 'tooSmall' });
  });
});
