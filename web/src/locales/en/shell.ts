/*
 * The English messages the shell and the first screen need (the top bar,
 * shared parts, the idle and start screens): they ship with the first
 * route. The rest of the journey's (journey.ts) loads with the first screen
 * that needs it (lib/i18n.ts, loadJourneyMessages).
 */
import common from './common.json';
import start from './start.json';

const shell = { common, start };
export default shell;
