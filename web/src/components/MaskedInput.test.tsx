import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { maskPattern, PATTERNS } from '@/lib/masks';
import { MaskedInput } from '@/components/MaskedInput';

function Phone({ initial = '' }: { initial?: string }) {
  const [value, setValue] = useState(initial);
  return (
    <label>
      Phone
      <MaskedInput value={value} shape={(typed) => maskPattern(typed, PATTERNS.phone)} onValueChange={setValue} />
    </label>
  );
}

const box = () => screen.getByLabelText('Phone') as HTMLInputElement;

describe('MaskedInput', () => {
  it('shapes what is typed and what is pasted', async () => {
    render(<Phone />);
    await userEvent.type(box(), '6195550134');
    expect(box().value).toBe('(619) 555-0134');
    await userEvent.clear(box());
    await userEvent.click(box());
    await userEvent.paste('619.555.0199');
    expect(box().value).toBe('(619) 555-0199');
  });

  it('keeps the caret where the patient types in the middle', async () => {
    render(<Phone initial="(619) 555-0134" />);
    box().setSelectionRange(3, 3); // "(61|9) 555-0134"
    await userEvent.type(box(), '8', { initialSelectionStart: 3, initialSelectionEnd: 3 });
    expect(box().value).toBe('(618) 955-5013');
    expect(box().selectionStart).toBe(4);
  });

  it('refuses a letter without moving the caret', async () => {
    render(<Phone initial="(619) 555" />);
    await userEvent.type(box(), 'x', { initialSelectionStart: 2, initialSelectionEnd: 2 });
    expect(box().value).toBe('(619) 555');
    await new Promise((r) => setTimeout(r, 0));
    expect(box().selectionStart).toBe(2);
  });
});
