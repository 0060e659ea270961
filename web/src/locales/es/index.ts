/*
 * The Spanish catalogue, file for file as the English one (locales/en/index.ts).
 * Its keys and placeholders must match the English ones (locales/parity.test.ts);
 * plural keys carry the forms Spanish needs (_one, _many, _other).
 */
import applicationFirst from './application.first.json';
import applicationLater from './application.json';
import commonFirst from './common.first.json';
import commonLater from './common.json';
import creditLimit from './creditLimit.json';
import docs from './docs.json';
import finish from './finish.json';
import help from './help.json';
import lenderSteps from './lenderSteps.json';
import modals from './modals.json';
import offers from './offers.json';
import payment from './payment.json';
import quiz from './quiz.json';
import results from './results.json';
import signing from './signing.json';
import startFirst from './start.first.json';
import startLater from './start.json';

// Each of these parts in two files, as in English (locales/en/index.ts): the first route's words, and the rest.
const application = { ...applicationFirst, ...applicationLater };
const common = { ...commonFirst, ...commonLater };
const start = { ...startFirst, ...startLater };

const es = { application, common, creditLimit, docs, finish, help, lenderSteps, modals, offers, payment, quiz, results, signing, start };
export default es;
