/*
 * The English messages the first route shows (the top bar and footer, the
 * stepper, the idle screen, the error page): they ship with it. The form's
 * (form.ts, the start screen's included) and the rest of the journey's
 * (journey.ts) load with the first screen that needs them (lib/i18n.ts).
 */
import common from './common.first.json';
import start from './start.first.json';

const shell = { common, start };
export default shell;
