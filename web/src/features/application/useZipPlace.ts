import { useEffect, useRef, useState } from 'react';
import { useWatch, type Control, type FieldValues, type UseFormGetValues, type UseFormSetValue } from 'react-hook-form';
import type { FieldDefinition, ZipPlace } from '@/lib/api/types';
import { fieldType } from '@/lib/validation';
import { lookUpZip } from './api/validate';

/*
 * Fewer things to type (docs/behaviour.md, "Validation"): once the ZIP code
 * has five digits, the city and state are filled in from the server's ZIP
 * list, the one its ZIP-for-state check uses. Only empty fields, or fields
 * this filled in itself, are filled: a city the patient typed is theirs, and
 * they may change what was filled in.
 */

interface Targets {
  zip: string;
  city?: string;
  state?: string;
}

function targetsOf(fields: FieldDefinition[]): Targets | null {
  const zip = fields.find((f) => fieldType(f, () => undefined) === 'zipCode');
  if (!zip) return null;
  const sameGroup = (f: FieldDefinition) => f.group === zip.group;
  const city = fields.find((f) => f.id === 'addressCity') ?? fields.find((f) => sameGroup(f) && /city/i.test(f.id));
  const state = fields.find((f) => sameGroup(f) && fieldType(f, () => undefined) === 'state') ?? fields.find((f) => f.id === 'addressState');
  return { zip: zip.id, city: city?.id, state: state?.id };
}

/** useZipPlace fills the city and state from the ZIP code; it answers the place it filled in last, for the form to announce. */
export function useZipPlace(
  fields: FieldDefinition[],
  control: Control<FieldValues>,
  getValues: UseFormGetValues<FieldValues>,
  setValue: UseFormSetValue<FieldValues>,
): ZipPlace | null {
  const targets = targetsOf(fields);
  const zip = useWatch({ control, name: targets?.zip ?? '__none__', disabled: !targets }) as unknown;
  const filled = useRef<{ city?: string; state?: string }>({});
  const [place, setPlace] = useState<ZipPlace | null>(null);
  const digits = typeof zip === 'string' ? zip.replace(/\D/g, '') : '';
  const five = digits.length === 5 ? digits : null;

  useEffect(() => {
    if (!targets || !five) return;
    const ctl = new AbortController();
    lookUpZip(five, ctl.signal).then(
      (p) => {
        if (!p || ctl.signal.aborted) return;
        // A field is ours to fill while it is empty or still holds what we put there.
        const ours = (id: string | undefined, key: 'city' | 'state') => {
          if (!id) return false;
          const now = String(getValues(id) ?? '').trim();
          return now === '' || now === filled.current[key];
        };
        const opts = { shouldValidate: true, shouldDirty: true };
        if (ours(targets.city, 'city')) {
          setValue(targets.city!, p.city, opts);
          filled.current.city = p.city;
        }
        if (ours(targets.state, 'state')) {
          setValue(targets.state!, p.state, opts);
          filled.current.state = p.state;
        }
        setPlace(p);
      },
      () => undefined, // no list answer: the patient types the city, as before
    );
    return () => ctl.abort();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only a new five-digit ZIP asks again
  }, [five]);

  return place;
}
