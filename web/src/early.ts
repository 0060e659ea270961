// The first script of the page a link or a QR code lands on (start.html,
// vite.config.ts): the start call leaves before the app's code has arrived
// (lib/api/early.ts), and its answer draws the form's heading and lead while
// that code is still arriving or running (lib/firstWords.ts).
import { readEarlyStart, sendEarlyStart } from '@/lib/api/early';
import { firstWordsOf, paintFirstWords } from '@/lib/firstWords';

const start = sendEarlyStart(location.pathname);
if (start) {
  void readEarlyStart(start).then((res) => {
    const words = res && firstWordsOf(res, start.asked);
    if (words) paintFirstWords(words);
  });
}
