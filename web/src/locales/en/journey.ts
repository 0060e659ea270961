/*
 * The English messages of the journey's screens after the first (see
 * shell.ts): loaded beside each screen's own code, never before it is needed.
 * Added to the shell's, so common and start come whole (lib/i18n.ts, merge).
 */
import application from './application.json';
import common from './common.json';
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
import start from './start.json';

const journey = { application, common, creditLimit, docs, finish, help, lenderSteps, offers, payment, quiz, results, signing, start };
export default journey;
