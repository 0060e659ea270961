import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { SignatureField } from './SignatureField';
import type { SignatureValue } from './signature';

const pngOfBytes = (n: number) => 'data:image/png;base64,' + Buffer.alloc(n, 1).toString('base64');

/** The pad's own (colour) image: large, to show it is never what is judged or sent. */
const COLOUR = pngOfBytes(20_000);

// A stand-in for signature_pad: it keeps the endStroke listener so the test can end a stroke.
const pad = vi.hoisted(() => ({
  onEnd: null as null | (() => void),
  empty: false,
  strokes: [] as { points: { x: number; y: number }[] }[],
}));
vi.mock('signature_pad', () => ({
  default: class {
    addEventListener(_: string, fn: () => void) {
      pad.onEnd = fn;
    }
    removeEventListener() {}
    off() {}
    clear() {}
    isEmpty() {
      return pad.empty;
    }
    toDataURL() {
      return COLOUR;
    }
  },
}));

/** The pad's pixels as a 600×140 canvas would hold them: the pen's path drawn opaque on transparent paper. */
function paint(strokes: { points: { x: number; y: number }[] }[]) {
  const width = 600,
    height = 140;
  const data = new Uint8ClampedArray(width * height * 4);
  const dot = (x: number, y: number) => {
    const i = (Math.round(y) * width + Math.round(x)) * 4;
    data[i + 3] = 255;
  };
  for (const { points } of strokes) {
    points.forEach((p, i) => {
      const q = points[i + 1] ?? p;
      const n = Math.max(Math.abs(q.x - p.x), Math.abs(q.y - p.y), 1);
      for (let k = 0; k <= n; k++) dot(p.x + ((q.x - p.x) * k) / n, p.y + ((q.y - p.y) * k) / n);
    });
  }
  return { data, width, height };
}

let encoded = '';
let lettered: string[] = [];
beforeEach(() => {
  lettered = [];
  pad.onEnd = null;
  pad.empty = false;
  pad.strokes = [
    {
      points: [
        { x: 10, y: 10 },
        { x: 200, y: 60 },
      ],
    },
  ];
  // The test document has no canvas: a 2D context just good enough for the black-and-white copy.
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockImplementation(
    () =>
      ({
        scale: () => undefined,
        getImageData: () => paint(pad.strokes),
        putImageData: () => undefined,
        clearRect: () => undefined,
        fillRect: () => undefined,
        fillText: (text: string) => lettered.push(text),
        measureText: (text: string) => ({ width: text.length * 20 }),
      }) as unknown as CanvasRenderingContext2D,
  );
  vi.spyOn(HTMLCanvasElement.prototype, 'toDataURL').mockImplementation(() => encoded);
});
afterEach(() => vi.restoreAllMocks());

function stroke(blackAndWhite: string): SignatureValue {
  encoded = blackAndWhite;
  const onChange = vi.fn();
  render(<SignatureField onChange={onChange} />);
  onChange.mockClear();
  pad.onEnd!();
  expect(onChange).toHaveBeenCalledTimes(1);
  return onChange.mock.calls[0]![0] as SignatureValue;
}

describe('SignatureField judges the black-and-white PNG it sends', () => {
  it('refuses a stroke whose black-and-white PNG is 3000 bytes, however large the colour image', () => {
    const v = stroke(pngOfBytes(3000));
    expect(v.valid).toBe(false);
    expect(v.problem).toBe('tooSmall');
  });

  it('accepts 3001 bytes and hands over exactly that data URL', () => {
    const bw = pngOfBytes(3001);
    const v = stroke(bw);
    expect(v).toEqual({ valid: true, problem: null, png: bw, method: 'drawn' });
    expect(v.png).not.toBe(COLOUR);
  });

  it('one tap is no signature, however many bytes its PNG has', () => {
    pad.strokes = [{ points: [{ x: 120, y: 80 }] }];
    expect(stroke(pngOfBytes(3800))).toMatchObject({ valid: false, problem: 'tooSmall' });
  });

  it('an empty pad is no signature', () => {
    pad.empty = true;
    expect(stroke(pngOfBytes(5000))).toMatchObject({ valid: false, problem: 'empty', png: '' });
  });
});

describe('signing by typing one’s name, an equal choice to drawing', () => {
  it('lettered from what is typed, judged as a drawn one is, and sent with the name', async () => {
    encoded = pngOfBytes(3500);
    const onChange = vi.fn();
    render(<SignatureField onChange={onChange} />);
    expect(screen.getByRole('radio', { name: 'Draw my signature' })).toHaveProperty('checked', true);
    await userEvent.click(screen.getByRole('radio', { name: 'Type my name' }));
    expect(screen.queryByTestId('signature-pad')).toBeNull();
    expect(onChange).toHaveBeenLastCalledWith({ valid: false, problem: 'empty', png: '', method: 'typed' });
    await userEvent.type(screen.getByLabelText('Type your full name'), 'Maria Approve');
    expect(onChange).toHaveBeenLastCalledWith({ valid: true, problem: null, png: encoded, method: 'typed', typedName: 'Maria Approve' });
    expect(lettered.at(-1)).toBe('Maria Approve');
    expect(screen.getByRole('img', { name: 'Your signature: Maria Approve' })).toBeTruthy();
    await userEvent.clear(screen.getByLabelText('Type your full name'));
    expect(onChange).toHaveBeenLastCalledWith(expect.objectContaining({ valid: false, method: 'typed' }));
  });

  it('going back to drawing forgets the typed name', async () => {
    const onChange = vi.fn();
    render(<SignatureField onChange={onChange} />);
    await userEvent.click(screen.getByRole('radio', { name: 'Type my name' }));
    await userEvent.type(screen.getByLabelText('Type your full name'), 'Maria');
    await userEvent.click(screen.getByRole('radio', { name: 'Draw my signature' }));
    expect(onChange).toHaveBeenLastCalledWith({ valid: false, problem: 'empty', png: '', method: 'drawn' });
    expect(screen.getByTestId('signature-pad')).toBeTruthy();
  });
});
