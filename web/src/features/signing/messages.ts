/** The waiting messages of signing and completing (docs/behaviour.md, "Signing"). */
export const signingProgress = {
  esign: 'Saving your signature…',
  complete: 'Completing your application…',
};
