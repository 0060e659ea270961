import { t } from '@/lib/i18n';

/** The waiting messages of the offer steps (docs/behaviour.md, "Plans and offers"), in the language of the moment they show. */
export const offerProgress = {
  plans: (lender: string) => t('offers.progress.plans', { lender }),
  select: () => t('offers.progress.select'),
  acceptOffer: (lender: string) => t('offers.progress.acceptOffer', { lender }),
};
