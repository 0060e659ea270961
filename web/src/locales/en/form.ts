/*
 * The English of the screens a link or a QR code opens on (see shell.ts):
 * the start screen, the application form and what the form's screens show
 * around it (the stepper's step names, the documents it links to), and
 * the dialogs of modals.json (the patient check opens before the form). It
 * comes with the form's code; the words of the screens after the form
 * (journey.ts) come with theirs (lib/i18n.ts, loadFormMessages).
 */
import applicationFirst from './application.first.json';
import applicationLater from './application.json';
import common from './common.json';
import docs from './docs.json';
import lenderSteps from './lenderSteps.json';
import modals from './modals.json';
import start from './start.json';

const application = { ...applicationFirst, ...applicationLater };
const form = { application, common, docs, lenderSteps, modals, start };
export default form;
