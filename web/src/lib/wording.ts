import { useFlow } from '@/stores/flow';
import { t, useT } from './i18n';

/**
 * The two wordings of the product's copy (docs/behaviour.md, "Words"): an
 * office with a brand name is named by it; one without gets the neutral
 * wording, "the office manager" for the person who helps and "the dental
 * practice" for the place. The words are in the app's language
 * (the "wording" messages of locales/en/common.json and locales/es/common.json).
 */
export interface Wording {
  /** Who helps the patient: "the office manager", or "the Maple Street Dental team". */
  staff: string;
  /** The practice as a place and as the one paid: "the dental practice", or "Maple Street Dental". */
  practice: string;
}

export function wording(brandName?: string | null): Wording {
  const brand = brandName?.trim();
  if (!brand) return { staff: t('common.wording.staffNeutral'), practice: t('common.wording.practiceNeutral') };
  return { staff: t('common.wording.staffBrand', { brand }), practice: brand };
}

/** useWording answers the wording of the session's office (kept after a finish, so the finish screen has it too). */
export function useWording(): Wording {
  useT(); // render again in a new language
  return wording(useFlow((s) => s.location?.brandName));
}

/** currentWording is useWording outside React (error boundaries, plain functions). */
export function currentWording(): Wording {
  return wording(useFlow.getState().location?.brandName);
}
