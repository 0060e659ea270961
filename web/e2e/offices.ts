/*
 * The demo offices the browser tests walk (demo/offices.yaml): one office per
 * lender, where lenders.spec.ts walks each lender's whole journey at $4,500
 * with the money checks of every screen; money.spec.ts walks every other
 * office at $4,500 and all of them at $600.
 */

/** An office whose waterfall starts with its lender. */
export interface LenderOffice {
  key: string;
  lender: string;
  lenderKey: string;
  /** The screens between accepting and signing (or, for Fortiva, after signing) this lender must show, in order. */
  own: string[];
}

export const LENDER_OFFICES: LenderOffice[] = [
  { key: '1000200030011000', lender: 'ADS Health', lenderKey: 'ads_standard', own: [] },
  { key: '1000200030012000', lender: 'AFF', lenderKey: 'aff_standard', own: ['agreement'] },
  { key: '1000200030013000', lender: 'Covered Care', lenderKey: 'covered_care_standard', own: [] },
  { key: '1000200030014000', lender: 'Fortiva', lenderKey: 'fortiva_standard', own: ['completeAgreement'] },
  { key: '1000200030015000', lender: 'Genesis', lenderKey: 'genesis_aspen', own: [] },
  { key: '1000200030016000', lender: 'HFD', lenderKey: 'hfd_standard', own: ['downpayment', 'additionalContactInformation', 'loanPayment'] },
  { key: '1000200030017000', lender: 'LendingClub', lenderKey: 'lendingclub_standard', own: [] },
  { key: '1000200030018000', lender: 'Proceed', lenderKey: 'proceed_standard', own: [] },
  { key: '1000200030019000', lender: 'Snap', lenderKey: 'snap_standard', own: ['addBankAccount', 'agreement'] },
  { key: '1000200030020000', lender: 'Synchrony', lenderKey: 'synchrony_standard', own: [] },
  { key: '1000200030021000', lender: 'Vive', lenderKey: 'vive_standard', own: [] },
];
