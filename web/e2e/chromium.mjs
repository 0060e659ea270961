// The flags Debian's Chromium needs on these machines (root, no GPU, a
// closed network), shared by the browser tests and the Lighthouse report so
// both run the same browser the same way. Never a browser download.
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? process.env.CHROME_PATH ?? '/usr/bin/chromium';

// The browser tests drive Debian's headless shell of the same Chromium
// (package chromium-headless-shell): the same engine without the desktop
// browser around it. It costs about 30 % less CPU a test than Chromium's
// own headless mode (docs/testing.md, "How the run is kept fast"); the
// Lighthouse report keeps the whole browser, as a patient's phone runs it.
export const HEADLESS_SHELL_PATH = process.env.E2E_CHROMIUM_PATH ?? '/usr/bin/chromium-headless-shell';

export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];
