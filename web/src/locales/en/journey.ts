/*
 * The English messages of the journey's screens after the first (see
 * shell.ts): loaded beside each screen's own code, never before it is needed.
 */
import application from './application.json';
import creditLimit from './creditLimit.json';
import docs from './docs.json';
import finish from './finish.json';
import help from './help.json';
import lenderSteps from './lenderSteps.json';
import offers from './offers.json';
import payment from './payment.json';
import quiz from './quiz.json';
import results from './results.json';
import signing from './signing.json';

const journey = { application, creditLimit, docs, finish, help, lenderSteps, offers, payment, quiz, results, signing };
export default journey;
