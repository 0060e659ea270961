import { useEffect, useRef } from 'react';
import SignaturePad from 'signature_pad';
import { Button } from '@/components/Button';
import { isSignatureValid, PEN_COLOR, THROTTLE_MS, toBlackAndWhite } from './signature';

export interface SignatureValue {
  valid: boolean;
  /** Black-and-white PNG as a data URL, empty when cleared. */
  png: string;
}

function blackAndWhitePng(source: HTMLCanvasElement): string {
  const out = document.createElement('canvas');
  out.width = source.width;
  out.height = source.height;
  const ctx = out.getContext('2d');
  const src = source.getContext('2d');
  if (!ctx || !src) return '';
  const img = src.getImageData(0, 0, source.width, source.height);
  toBlackAndWhite(img.data);
  ctx.putImageData(img, 0, 0);
  return out.toDataURL('image/png');
}

/** SignatureField: the signature pad (pen #008ad8, throttle 20, 140px+ tall), valid above 3000 bytes. */
export function SignatureField({ onChange, invalid, describedBy }: { onChange: (v: SignatureValue) => void; invalid?: boolean; describedBy?: string }) {
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
      onChangeRef.current({ valid: false, png: '' });
    };
    const pad = new SignaturePad(canvas, { penColor: PEN_COLOR, throttle: THROTTLE_MS, minWidth: 1, maxWidth: 3 });
    padRef.current = pad;
    resize();
    const onEnd = () => {
      const raw = pad.toDataURL('image/png');
      const valid = isSignatureValid(raw);
      onChangeRef.current({ valid, png: valid ? blackAndWhitePng(canvas) : '' });
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
    onChange({ valid: false, png: '' });
  };

  return (
    <div>
      <div className="sig-wrap" style={invalid ? { borderColor: 'var(--error)' } : undefined}>
        <canvas ref={canvasRef} role="img" aria-label="Signature area. Sign with your finger or a stylus." aria-describedby={describedBy} data-testid="signature-pad" />
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
