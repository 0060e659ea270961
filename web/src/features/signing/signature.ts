/** Signature rules of spec §4.5 / §9. */
export const SIGNATURE_MIN_LENGTH = 3000;
export const PEN_COLOR = '#008ad8';
export const THROTTLE_MS = 20;

/** isSignatureValid: valid only when the captured image data is longer than 3000. */
export function isSignatureValid(dataUrl: string | null | undefined): boolean {
  return (dataUrl?.length ?? 0) > SIGNATURE_MIN_LENGTH;
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
