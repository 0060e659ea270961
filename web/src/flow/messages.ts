/** Waiting messages for each submission stage (spec §4.2), in one place. */
export const progressMessages = {
  decision: (op: string, lender: string) =>
    op === 'apply'
      ? `Sending your application to ${lender}…`
      : op === 'prescreen'
        ? `Checking your options with ${lender}…`
        : `Checking your options with ${lender}…`,
  fields: 'Getting the application ready…',
  plans: (lender: string) => `Getting payment plans from ${lender}…`,
  select: 'Saving your choice…',
  acceptOffer: (lender: string) => `Accepting your offer with ${lender}…`,
  patch: 'Updating your application…',
  esign: 'Saving your signature…',
  complete: 'Completing your application…',
  finish: 'Finishing…',
};
