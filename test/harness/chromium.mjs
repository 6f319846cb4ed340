// How the tests start a browser: Debian's chromium driven by playwright-core, headless and quiet on a
// closed network. Used by the webview tier and by the code-server runner of the vscode tier.
import { chromium } from 'playwright-core';

export const chromiumPath = process.env.TERRACE_CHROMIUM ?? '/usr/bin/chromium';

export const quietChromiumArgs = Object.freeze([
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]);

/** A headless persistent context in `userDataDir` (playwright refuses a `--user-data-dir` argument). */
export function launchChromium(userDataDir, options = {}) {
  return chromium.launchPersistentContext(userDataDir, {
    executablePath: chromiumPath,
    headless: true,
    args: [...quietChromiumArgs],
    ...options,
  });
}
