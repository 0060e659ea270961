/*
 * The English of the journey's screens after the form (see shell.ts and
 * form.ts): loaded beside each screen's own code, never before it is needed
 * (lib/i18n.ts, loadJourneyMessages, which brings form.ts's too).
 */
import creditLimit from './creditLimit.json';
import finish from './finish.json';
import help from './help.json';
import offers from './offers.json';
import payment from './payment.json';
import quiz from './quiz.json';
import results from './results.json';
import signing from './signing.json';

const journey = { creditLimit, finish, help, offers, payment, quiz, results, signing };
export default journey;
