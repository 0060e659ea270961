// The first script of the page a link or a QR code lands on (start.html,
// vite.config.ts): the start call leaves before the app's code has arrived
// (lib/api/early.ts).
import { sendEarlyStart } from '@/lib/api/early';

sendEarlyStart(location.pathname);
