/*
 * The English catalogue, one JSON file per part of the journey (docs/languages.md):
 * all of it, for the types and the tests. The app loads it in three parts:
 * shell.ts with the first route, form.ts with the form, journey.ts with the
 * screens after it; of common and start, the words the first route shows
 * are in a file of their own (.first.json), and so are the application
 * screen's heading and lead, which a link's page draws before the app has
 * loaded (lib/firstWords.ts).
 * English is the source language: its keys and placeholders are the ones every
 * other language must have (locales/parity.test.ts).
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

// Each of these parts in two files: the first words a page shows, and the rest (shell.ts, form.ts,
// lib/firstWords.ts).
const application = { ...applicationFirst, ...applicationLater };
const common = { ...commonFirst, ...commonLater };
const start = { ...startFirst, ...startLater };

const en = { application, common, creditLimit, docs, finish, help, lenderSteps, modals, offers, payment, quiz, results, signing, start };
export default en;
export type Catalogue = typeof en;
