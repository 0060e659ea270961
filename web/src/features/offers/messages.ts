/** The waiting messages of the offer steps (docs/behaviour.md, "Plans and offers"). */
export const offerProgress = {
  plans: (lender: string) => `Getting payment plans from ${lender}…`,
  select: 'Saving your choice…',
  acceptOffer: (lender: string) => `Accepting your offer with ${lender}…`,
};
