import { t } from '@/lib/i18n';

/** The waiting messages of signing and completing (docs/behaviour.md, "Signing"), in the language of the moment they show. */
export const signingProgress = {
  esign: () => t('signing.progress.esign'),
  complete: () => t('signing.progress.complete'),
};

/** thenList names the lenders an application goes on to, in order: "B, then C". */
export function thenList(names: readonly string[]): string {
  return names.length ? names.reduce((first, next) => t('signing.list.then', { first, next })) : '';
}
