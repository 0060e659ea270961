import { useEffect, useId, useRef, useState } from 'react';
import SignaturePad from 'signature_pad';
import { Button } from '@/components/Button';
import { useT } from '@/lib/i18n';
import {
  drawTypedName,
  EMPTY_SIGNATURE,
  hasInk,
  PEN_COLOR,
  signatureValue,
  THROTTLE_MS,
  toBlackAndWhite,
  type SignatureMethod,
  type SignatureValue,
} from './signature';

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
 * SignatureField: two equal ways to sign (docs/behaviour.md, "Signing"):
 * drawing on the pad, or typing one's name and adopting it as one's
 * signature, for a patient who cannot draw (a keyboard, a switch, an
 * unsteady hand). Changing the way clears what was given the other way.
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
  const t = useT();
  const [method, setMethod] = useState<SignatureMethod>('drawn');
  const name = useId();
  const choose = (m: SignatureMethod) => {
    setMethod(m);
    onChange({ ...EMPTY_SIGNATURE, method: m });
  };
  return (
    <div>
      <fieldset className="sig-choice radios">
        <legend className="visually-hidden">{t('signing.field.how')}</legend>
        <label>
          <input type="radio" name={name} checked={method === 'drawn'} onChange={() => choose('drawn')} />
          {t('signing.field.draw')}
        </label>
        <label>
          <input type="radio" name={name} checked={method === 'typed'} onChange={() => choose('typed')} />
          {t('signing.field.type')}
        </label>
      </fieldset>
      {method === 'drawn' ? (
        <SignaturePadField onChange={onChange} invalid={invalid} describedBy={describedBy} />
      ) : (
        <TypedSignatureField onChange={onChange} invalid={invalid} describedBy={describedBy} />
      )}
    </div>
  );
}

/**
 * TypedSignatureField: the patient types their full name; it is lettered
 * onto a canvas like a signature and that image, made black and white as a
 * drawn one is, is what is sent, with the name itself for the server to
 * check it is the applicant's.
 */
function TypedSignatureField({ onChange, invalid, describedBy }: { onChange: (v: SignatureValue) => void; invalid?: boolean; describedBy?: string }) {
  const t = useT();
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const [typed, setTyped] = useState('');
  const update = (text: string) => {
    setTyped(text);
    const canvas = canvasRef.current;
    if (!text.trim() || !canvas || !drawTypedName(canvas, text)) {
      if (canvas) drawTypedName(canvas, '');
      onChange({ ...EMPTY_SIGNATURE, method: 'typed', typedName: text });
      return;
    }
    const { png, ink } = blackAndWhite(canvas);
    onChange(signatureValue(png, ink, 'typed', text.trim()));
  };
  return (
    <div>
      <label htmlFor="typed-signature">{t('signing.field.typedLabel')}</label>
      <span className="hint" id="typed-signature-hint">
        {t('signing.field.typedHint')}
      </span>
      <input
        id="typed-signature"
        className="input"
        type="text"
        autoComplete="name"
        spellCheck={false}
        maxLength={200}
        value={typed}
        aria-invalid={invalid ? true : undefined}
        aria-describedby={['typed-signature-hint', describedBy].filter(Boolean).join(' ')}
        onChange={(e) => update(e.target.value)}
      />
      <div className="sig-wrap sig-wrap--typed" style={invalid ? { borderColor: 'var(--error)' } : undefined}>
        <canvas
          ref={canvasRef}
          width={600}
          height={140}
          role="img"
          aria-label={typed.trim() ? t('signing.field.typedImage', { name: typed.trim() }) : t('signing.field.typedEmpty')}
        />
      </div>
    </div>
  );
}

/**
 * SignaturePadField: the signature pad (pen #008ad8, throttle 20, 140px+ tall).
 * After each stroke it builds the black-and-white PNG first and judges that
 * very PNG by the server's rule (signature.ts): more than 3000 decoded
 * bytes, at most 512 KiB, and ink that makes a mark, so a single tap is not
 * a signature and what passes here is what the server accepts.
 */
function SignaturePadField({ onChange, invalid, describedBy }: { onChange: (v: SignatureValue) => void; invalid?: boolean; describedBy?: string }) {
  const t = useT();
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const padRef = useRef<SignaturePad | null>(null);
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;

  useEffect(() => {
    const canvas = canvasRef.current;
    // A document without canvas (a test's) has no context: guard getContext.
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
        <canvas ref={canvasRef} role="img" aria-label={t('signing.field.pad')} aria-describedby={describedBy} data-testid="signature-pad" />
        <div className="sig-line" aria-hidden="true" />
      </div>
      <div className="actions" style={{ marginTop: 8 }}>
        <Button variant="secondary" onClick={clear}>
          {t('signing.field.clear')}
        </Button>
      </div>
    </div>
  );
}
