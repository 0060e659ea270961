import { useEffect, useRef } from 'react';
import SignaturePad from 'signature_pad';
import { Button } from '@/components/Button';
import { EMPTY_SIGNATURE, hasInk, PEN_COLOR, signatureValue, THROTTLE_MS, toBlackAndWhite, type SignatureValue } from './signature';

export type { SignatureValue } from './signature';

/**
 * blackAndWhite draws the pad's ink black on white and encodes it: this PNG
 * is what the server receives, and ink says whether these very pixels —
 * which the lossless PNG hands the server unchanged — make a mark.
 */
export function blackAndWhite(source: HTMLCanvasElement): { png: string; ink: boolean } {
  const out = document.createElement('canvas');
  out.width = source.width;
  out.height = source.height;
  const ctx = out.getContext('2d');
  const src = source.getContext('2d');
  if (!ctx || !src) return { png: '', ink: false };
  const img = src.getImageData(0, 0, source.width, source.height);
  toBlackAndWhite(img.data);
  ctx.putImageData(img, 0, 0);
  return { png: out.toDataURL('image/png'), ink: hasInk(img.data, img.width, img.height) };
}

/**
 * SignatureField: the signature pad (pen #008ad8, throttle 20, 140px+ tall).
 * After each stroke it builds the black-and-white PNG first and judges that
 * very PNG by the server's rule (signature.ts): more than 3000 decoded
 * bytes, at most 512 KiB, and ink that makes a mark, so a single tap is not
 * a signature and what passes here is what the server accepts.
 */
export function SignatureField({
  onChange,
  invalid,
  describedBy,
}: {
  onChange: (v: SignatureValue) => void;
  invalid?: boolean;
  describedBy?: string;
}) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const padRef = useRef<SignaturePad | null>(null);
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;

  useEffect(() => {
    const canvas = canvasRef.current;
    // jsdom has no canvas: guard getContext.
    if (!canvas || !canvas.getContext('2d')) return;
    const resize = () => {
      const ratio = Math.max(window.devicePixelRatio || 1, 1);
      canvas.width = canvas.offsetWidth * ratio;
      canvas.height = canvas.offsetHeight * ratio;
      canvas.getContext('2d')?.scale(ratio, ratio);
      padRef.current?.clear();
      onChangeRef.current(EMPTY_SIGNATURE);
    };
    const pad = new SignaturePad(canvas, { penColor: PEN_COLOR, throttle: THROTTLE_MS, minWidth: 1, maxWidth: 3 });
    padRef.current = pad;
    resize();
    const onEnd = () => {
      if (pad.isEmpty()) return onChangeRef.current(EMPTY_SIGNATURE);
      const { png, ink } = blackAndWhite(canvas);
      onChangeRef.current(signatureValue(png, ink));
    };
    pad.addEventListener('endStroke', onEnd);
    let w = window.innerWidth;
    const onResize = () => {
      if (window.innerWidth !== w) {
        w = window.innerWidth;
        resize();
      }
    };
    window.addEventListener('resize', onResize);
    return () => {
      pad.removeEventListener('endStroke', onEnd);
      pad.off();
      window.removeEventListener('resize', onResize);
    };
  }, []);

  const clear = () => {
    padRef.current?.clear();
    onChange(EMPTY_SIGNATURE);
  };

  return (
    <div>
      <div className="sig-wrap" style={invalid ? { borderColor: 'var(--error)' } : undefined}>
        <canvas
          ref={canvasRef}
          role="img"
          aria-label="Signature area. Sign with your finger or a stylus."
          aria-describedby={describedBy}
          data-testid="signature-pad"
        />
        <div className="sig-line" aria-hidden="true" />
      </div>
      <div className="actions" style={{ marginTop: 8 }}>
        <Button variant="secondary" onClick={clear}>
          Clear signature
        </Button>
      </div>
    </div>
  );
}
