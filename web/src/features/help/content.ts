/** FAQ and glossary. English only for now. */
export interface Faq {
  title: string;
  facts: string[];
  subFacts?: { title: string; description: string }[];
}
export interface GlossaryEntry {
  term: string;
  definition: string;
  definition1?: string;
}

export const faqs: Faq[] = [
  {
    title: 'Will checking my options hurt my credit score?',
    facts: [
      'Checking if you prequalify uses a “soft” credit check. It does not affect your credit score.',
      'If you accept an offer or apply with the standard application, the lender may do a “hard” credit check, which can affect your score.',
    ],
  },
  {
    title: 'What information do I need?',
    facts: ['Your name, date of birth, address, phone number, Social Security number and yearly income.'],
    subFacts: [{ title: 'Applying with someone else', description: 'A joint applicant fills in their own details on the next screen.' }],
  },
  {
    title: 'What happens after I pick a payment plan?',
    facts: ['You review the plan, read the terms and sign on the screen. The lender then pays the office, and you pay the lender each month.'],
  },
  {
    title: 'What if I am not approved?',
    facts: [
      'Each lender that couldn’t approve you will send you its own letter explaining its decision within 7–10 business days.',
      'You can talk to the office about other ways to pay.',
    ],
  },
  {
    title: 'Can I change my mind?',
    facts: ['You can cancel within 5 days of accepting an offer. Contact the lender to do this.'],
  },
  {
    title: 'Is my information safe?',
    facts: [
      'Your information is sent over a secure connection and only shared with the lenders you apply to.',
      'Nothing you type is kept on this device after you finish.',
    ],
  },
];

export const glossary: GlossaryEntry[] = [
  { term: 'APR', definition: 'Annual Percentage Rate: the yearly cost of borrowing, including interest.' },
  {
    term: 'Deferred interest',
    definition: 'A promotion where no interest is charged if you pay the full amount within the promotional period.',
    definition1: 'If any amount is left at the end, interest is charged from the purchase date on the whole original amount.',
  },
  { term: 'Fixed rate', definition: 'The interest rate stays the same, and so does your monthly payment, for the whole plan.' },
  { term: 'Prequalification', definition: 'A first look at what a lender may offer you, using a soft credit check.' },
  { term: 'Soft credit check', definition: 'A look at your credit that does not change your credit score.' },
  { term: 'Hard credit check', definition: 'A credit check made when you apply for credit. It can lower your score a little for a while.' },
  { term: 'Approved amount', definition: 'The most the lender will lend you for your treatment.' },
  { term: 'Promotional period', definition: 'The number of months a special offer, such as no interest, lasts.' },
];
