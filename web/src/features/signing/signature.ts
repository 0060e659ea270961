/**
 * The one signature rule, applied here to exactly the PNG that is sent and
 * on the server to the same PNG (flow/consent.go decodeSignature): more
 * than 3000 and at most 512 KiB of decoded PNG bytes, and ink that makes a
 * mark (hasInk). The byte rule alone cannot tell an empty pad from a signed
 * one: Chromium encodes even a blank black-and-white pad as more than 3000
 * bytes, so the ink rule is what refuses a tap.
 */
export const SIGNATURE_MIN_BYTES = 3000;
export const SIGNATURE_MAX_BYTES = 512 * 1024;
export const PNG_DATA_URL_PREFIX = 'data:image/png;base64,';
export const PEN_COLOR = '#008ad8';
export const THROTTLE_MS = 20;

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * pngByteLength answers how many bytes the base64 payload of a
 * data:image/png;base64 URL decodes to: three bytes per four characters,
 * less one per "=" of padding. Anything that is not such a URL with padded
 * base64 (which the server could not decode) answers 0.
 */
export function pngByteLength(dataUrl: string | null | undefined): number {
  if (!dataUrl || !dataUrl.startsWith(PNG_DATA_URL_PREFIX)) return 0;
  const b64 = dataUrl.slice(PNG_DATA_URL_PREFIX.length);
  if (b64.length === 0 || b64.length % 4 !== 0 || !BASE64.test(b64)) return 0;
  const padding = b64.endsWith('==') ? 2 : b64.endsWith('=') ? 1 : 0;
  return (b64.length / 4) * 3 - padding;
}

export type SignatureProblem = 'empty' | 'tooSmall' | 'tooLarge';

/** signatureProblem says why a PNG data URL would be refused by the server's rule, or null when it passes. */
export function signatureProblem(dataUrl: string | null | undefined): SignatureProblem | null {
  if (!dataUrl) return 'empty';
  const bytes = pngByteLength(dataUrl);
  if (bytes > SIGNATURE_MAX_BYTES) return 'tooLarge';
  if (bytes <= SIGNATURE_MIN_BYTES) return 'tooSmall';
  return null;
}

/** isSignatureValid: more than 3000 and at most 512 KiB of decoded PNG bytes (the server's rule). */
export function isSignatureValid(dataUrl: string | null | undefined): boolean {
  return signatureProblem(dataUrl) === null;
}

/**
 * hasInk: the ink of the black-and-white pixels (RGBA, as toBlackAndWhite
 * leaves them; ink is a pixel darker than mid-grey) spans at least a tenth
 * of the image's width — the larger side of its bounding box — with at
 * least as many ink pixels as that span. A dot, scattered dots or an empty
 * pad fail. The server applies the same rule to the decoded PNG.
 */
export function hasInk(data: Uint8ClampedArray, width: number, height: number): boolean {
  let minX = width,
    minY = height,
    maxX = -1,
    maxY = -1,
    ink = 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      const lum = (299 * data[i]! + 587 * data[i + 1]! + 114 * data[i + 2]!) / 1000;
      if (data[i + 3]! < 128 || lum >= 128) continue;
      ink++;
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
    }
  }
  if (ink === 0) return false;
  const span = Math.max(maxX - minX + 1, maxY - minY + 1);
  return span * 10 >= width && ink >= span;
}

export interface SignatureValue {
  valid: boolean;
  /** Why it is not valid, when it is not. */
  problem: SignatureProblem | null;
  /** The black-and-white PNG as a data URL: exactly what is sent; empty when cleared. */
  png: string;
  /** Drawn on the pad, or the patient's typed name adopted as their signature (docs/behaviour.md, "Signing"). */
  method: SignatureMethod;
  /** With method typed, the name typed, which the server checks is the applicant's. */
  typedName?: string;
}

export type SignatureMethod = 'drawn' | 'typed';

export const EMPTY_SIGNATURE: SignatureValue = { valid: false, problem: 'empty', png: '', method: 'drawn' };

/**
 * signatureValue judges the very data URL that will be sent, with ink
 * telling whether its pixels make a mark (hasInk): the server's rule.
 */
export function signatureValue(png: string, ink: boolean, method: SignatureMethod = 'drawn', typedName?: string): SignatureValue {
  let problem = signatureProblem(png);
  if (problem === null && !ink) problem = 'tooSmall';
  if (method === 'typed') return { valid: problem === null, problem, png, method, typedName };
  return { valid: problem === null, problem, png, method };
}

/** The typed signature's lettering: a handwriting face where the device has one, else any cursive or serif italic. */
export const TYPED_FONT = 'italic 44px "Segoe Script", "Brush Script MT", "URW Chancery L", "Z003", cursive, serif';

/**
 * drawTypedName letters a typed name onto a canvas as a signature, in ink
 * on a transparent ground with the signing line under it, as the pad would
 * hold a drawn one; blackAndWhite then makes the PNG that is sent.
 */
export function drawTypedName(canvas: HTMLCanvasElement, name: string): boolean {
  const ctx = canvas.getContext('2d');
  if (!ctx) return false;
  const w = canvas.width;
  const h = canvas.height;
  ctx.clearRect(0, 0, w, h);
  if (!name.trim()) return true;
  ctx.fillStyle = PEN_COLOR;
  let size = Math.round(h * 0.38);
  ctx.font = TYPED_FONT.replace('44px', `${size}px`);
  // A long name is lettered smaller so that all of it fits.
  while (size > 12 && ctx.measureText(name.trim()).width > w * 0.9) {
    size -= 2;
    ctx.font = TYPED_FONT.replace('44px', `${size}px`);
  }
  ctx.textBaseline = 'alphabetic';
  ctx.fillText(name.trim(), w * 0.05, h * 0.68);
  ctx.fillRect(w * 0.05, h * 0.78, w * 0.9, Math.max(1, Math.round(h / 70)));
  return true;
}

/** toBlackAndWhite turns RGBA pixels into black ink on white: any ink becomes black. */
export function toBlackAndWhite(data: Uint8ClampedArray): void {
  for (let i = 0; i < data.length; i += 4) {
    const ink = data[i + 3]! > 24;
    const v = ink ? 0 : 255;
    data[i] = v;
    data[i + 1] = v;
    data[i + 2] = v;
    data[i + 3] = 255;
  }
}
