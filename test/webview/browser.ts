import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import type { PanelToWebview, WebviewToPanel } from '../../server/src/protocol';
import { launchChromium } from '../harness/chromium.mjs';

export const repoRoot = path.resolve(__dirname, '..', '..');
export const resultsDir = path.join(repoRoot, 'test-results', 'webview');

/** A made-up origin the test pages are served from (playwright answers it; nothing goes to the network). */
const ORIGIN = 'https://terrace-webview.test';

/**
 * What the panel's HTML gives the script: the `#graph` root. No CSP: the page only ever loads the built
 * bundle, `dist/webview.js`.
 */
const PAGE = `<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>Terrace graph (test)</title></head>
<body><main id="graph"></main><script src="${ORIGIN}/webview.js"></script></body>
</html>`;

/**
 * Stands in for VS Code's `acquireVsCodeApi`: what the script posts goes to the test through an exposed
 * function, before any page script runs.
 */
const VSCODE_API_STUB = `
  (() => {
    let state;
    globalThis.acquireVsCodeApi = () => ({
      postMessage: (message) => globalThis.terraceTestPostMessage(message),
      getState: () => state,
      setState: (value) => { state = value; },
    });
  })();
`;

/** The headless browser shared by a test file; `open` gives a fresh page with the webview loaded. */
export class WebviewBrowser {
  private constructor(
    private readonly context: BrowserContext,
    private readonly profileDir: string,
  ) {}

  static async launch(): Promise<WebviewBrowser> {
    const profileDir = mkdtempSync(path.join(os.tmpdir(), 'terrace-webview-'));
    const context = await launchChromium(profileDir, { viewport: { width: 1000, height: 700 } });
    return new WebviewBrowser(context, profileDir);
  }

  async open(): Promise<WebviewPage> {
    const page = await this.context.newPage();
    const webview = new WebviewPage(page);
    await page.exposeFunction('terraceTestPostMessage', (message: WebviewToPanel) => webview.received(message));
    await page.addInitScript({ content: VSCODE_API_STUB });
    const bundle = readFileSync(path.join(repoRoot, 'dist', 'webview.js'), 'utf8');
    await page.route(`${ORIGIN}/**`, (route) => {
      const url = new URL(route.request().url());
      if (url.pathname === '/webview.js') return route.fulfill({ contentType: 'text/javascript', body: bundle });
      if (url.pathname === '/') return route.fulfill({ contentType: 'text/html', body: PAGE });
      return route.fulfill({ status: 404, body: 'not found' });
    });
    page.on('pageerror', (error) => webview.errors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') webview.errors.push(message.text());
    });
    await page.goto(`${ORIGIN}/`);
    await webview.waitForMessage('ready');
    return webview;
  }

  async close(): Promise<void> {
    await this.context.close();
    rmSync(this.profileDir, { recursive: true, force: true });
  }
}

type MessageOf<T extends WebviewToPanel['type']> = Extract<WebviewToPanel, { type: T }>;

/** One page running the webview script, with the messages it posted to its host. */
export class WebviewPage {
  readonly messages: WebviewToPanel[] = [];
  /** Uncaught exceptions and console errors of the page. */
  readonly errors: string[] = [];
  private readonly waiters = new Set<() => void>();

  constructor(readonly page: Page) {}

  received(message: WebviewToPanel): void {
    this.messages.push(message);
    for (const wake of this.waiters) wake();
  }

  /** What the host sends the webview: a `message` event on its window. */
  async post(message: PanelToWebview): Promise<void> {
    await this.page.evaluate(`window.postMessage(${JSON.stringify(message)}, '*')`);
  }

  /** The first message of that type posted after `since` messages (default: any so far), waiting if needed. */
  waitForMessage<T extends WebviewToPanel['type']>(type: T, since = 0, timeoutMs = 5000): Promise<MessageOf<T>> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const found = this.messages.slice(since).find((message) => message.type === type);
        if (!found) return false;
        this.waiters.delete(check);
        clearTimeout(timer);
        resolve(found as MessageOf<T>);
        return true;
      };
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error(`no '${type}' message within ${timeoutMs} ms; got ${JSON.stringify(this.messages)}`));
      }, timeoutMs);
      if (!check()) this.waiters.add(check);
    });
  }

  /** Saves a screenshot as test-results/webview/<name>.png and returns its path. */
  async screenshot(name: string): Promise<string> {
    mkdirSync(resultsDir, { recursive: true });
    const file = path.join(resultsDir, `${name}.png`);
    await this.page.screenshot({ path: file, fullPage: true });
    return file;
  }
}
