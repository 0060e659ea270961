/*
 * The English messages the first route shows (the top bar and footer, the
 * stepper, the idle screen, the error page): they ship with it. The rest of
 * the journey's (journey.ts), the start screen's included, loads with the
 * first screen that needs it (lib/i18n.ts, loadJourneyMessages).
 */
import common from './common.first.json';
import start from './start.first.json';

const shell = { common, start };
export default shell;
