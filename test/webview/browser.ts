import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { graphPanelHtml } from '../../client/src/graphPanelHtml';
import type {
  GraphMessage,
  GraphModel,
  PackedPanelModel,
  PanelModel,
  PanelToWebview,
  WebviewToPanel,
} from '../../server/src/protocol';
import { packGraph } from '../../webview/src/packedGraph';
import { launchChromium } from '../harness/chromium.mjs';
import { moduleAddress, problemTexts } from './hostAnswers';
import { panelOfModel } from './panelOfModel';
import { type Theme, themes } from './themes';

export const repoRoot = path.resolve(__dirname, '..', '..');
export const resultsDir = path.join(repoRoot, 'test-results', 'webview');

/**
 * A made-up origin the test pages are served from (playwright answers it; nothing goes to the network).
 * It plays both the webview's origin and its resource origin (`webview.cspSource`).
 */
const ORIGIN = 'https://terrace-webview.test';
const NONCE = 'test-nonce-0123456789';

/** The panel's real HTML, with its Content-Security-Policy, loading the built files from dist/; with a graph in it, if given. */
function panelPage(graph?: GraphMessage): string {
  return graphPanelHtml({
    cspSource: ORIGIN,
    nonce: NONCE,
    script: readFileSync(path.join(repoRoot, 'dist', 'webview.js'), 'utf8'),
    style: readFileSync(path.join(repoRoot, 'dist', 'webview.css'), 'utf8'),
    worker: `${ORIGIN}/dist/layoutWorker.js`,
    graph,
  });
}

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript',
  '.css': 'text/css',
};

/**
 * Stands in for VS Code's `acquireVsCodeApi`: what the script posts goes to the test through an exposed
 * function, before any page script runs. The state starts as `globalThis.terraceTestState` when set.
 */
const VSCODE_API_STUB = `
  (() => {
    globalThis.acquireVsCodeApi = () => ({
      postMessage: (message) => globalThis.terraceTestPostMessage(message),
      getState: () => globalThis.terraceTestState,
      setState: (value) => { globalThis.terraceTestState = value; },
    });
  })();
`;

export interface OpenOptions {
  theme?: Theme;
  /** What `getState` returns at start (a reloaded panel). */
  state?: unknown;
  viewport?: { width: number; height: number };
  /** Changes the page's HTML (its Content-Security-Policy, say) before it is served. */
  html?: (page: string) => string;
  /** A graph in the page's HTML, as the host puts one it has already (the server's model, packed as the host packs it). */
  graph?: GraphModel;
}

/** The headless browser shared by a test file; `open` gives a fresh page with the webview loaded. */
export class WebviewBrowser {
  private constructor(
    private readonly context: BrowserContext,
    private readonly profileDir: string,
  ) {}

  static async launch(): Promise<WebviewBrowser> {
    const profileDir = mkdtempSync(path.join(os.tmpdir(), 'terrace-webview-'));
    const context = await launchChromium(profileDir, { viewport: { width: 1200, height: 760 } });
    return new WebviewBrowser(context, profileDir);
  }

  async open(options: OpenOptions = {}): Promise<WebviewPage> {
    const page = await this.context.newPage();
    if (options.viewport) await page.setViewportSize(options.viewport);
    const webview = new WebviewPage(page);
    await page.exposeFunction('terraceTestPostMessage', (message: WebviewToPanel) => webview.received(message));
    if (options.state !== undefined) {
      await page.addInitScript({ content: `globalThis.terraceTestState = ${JSON.stringify(options.state)};` });
    }
    await page.addInitScript({ content: VSCODE_API_STUB });
    // VS Code puts the theme's colours on <html> and its kind on <body> before the page's scripts run.
    await page.addInitScript({ content: themeScript(options.theme ?? themes.dark) });
    const served = panelPage(
      options.graph && { type: 'graph', graph: packGraph(panelOfModel(options.graph)), folderUri: 'file:///repo' },
    );
    await page.route(`${ORIGIN}/**`, (route) => {
      const url = new URL(route.request().url());
      if (url.pathname === '/')
        return route.fulfill({ contentType: 'text/html', body: options.html?.(served) ?? served });
      if (url.pathname.startsWith('/dist/')) {
        const file = path.join(repoRoot, 'dist', path.basename(url.pathname));
        try {
          return route.fulfill({
            contentType: CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream',
            body: readFileSync(file),
          });
        } catch {
          return route.fulfill({ status: 404, body: 'not found' });
        }
      }
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

function themeScript(theme: Theme): string {
  return `
    (() => {
      const apply = () => {
        const root = document.documentElement;
        if (!root) return;
        for (const [name, value] of Object.entries(${JSON.stringify(theme.variables)})) root.style.setProperty('--vscode-' + name, value);
        if (document.body) {
          document.body.classList.add(${JSON.stringify(theme.kind)});
          document.body.dataset.vscodeThemeKind = ${JSON.stringify(theme.kind)};
        }
      };
      apply();
      document.addEventListener('DOMContentLoaded', apply);
    })();
  `;
}

type MessageOf<T extends WebviewToPanel['type']> = Extract<WebviewToPanel, { type: T }>;

/** One page running the webview script, with the messages it posted to its host. */
export class WebviewPage {
  readonly messages: WebviewToPanel[] = [];
  /** Uncaught exceptions and console errors of the page. */
  readonly errors: string[] = [];
  private readonly waiters = new Set<() => void>();

  constructor(readonly page: Page) {}

  /** The server's model last posted: what the page's requests for problem texts are answered from, as the host does. */
  private serverGraph: GraphModel | undefined;

  received(message: WebviewToPanel): void {
    this.messages.push(message);
    for (const wake of this.waiters) wake();
    if (message.type === 'problems') {
      const problems = this.serverGraph ? problemTexts(this.serverGraph, message.modules, message.limit) : [];
      void this.post({ type: 'problems', id: message.id, problems });
    }
    if (message.type === 'address') {
      const address = this.serverGraph ? moduleAddress(this.serverGraph, message.module) : null;
      void this.post({ type: 'address', id: message.id, address });
    }
  }

  /**
   * What the host sends the webview: a `message` event on its window. A graph is posted as the host
   * posts it: the server's made the panel's (`panelOfModel`), then packed (`packGraph`).
   */
  async post(message: PanelToWebview | TestGraphMessage): Promise<void> {
    if (message.type === 'graph' && !isPacked(message.graph) && isServerGraph(message.graph))
      this.serverGraph = message.graph;
    const posted: PanelToWebview =
      message.type === 'graph' && !isPacked(message.graph)
        ? { ...message, graph: packGraph(isServerGraph(message.graph) ? panelOfModel(message.graph) : message.graph) }
        : (message as PanelToWebview);
    await this.page.evaluate((json) => window.postMessage(JSON.parse(json), '*'), JSON.stringify(posted));
  }

  /** The first message of that type posted after `since` messages (default: any so far), waiting if needed. */
  waitForMessage<T extends WebviewToPanel['type']>(type: T, since = 0, timeoutMs = 20_000): Promise<MessageOf<T>> {
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
        reject(
          new Error(`no '${type}' message within ${timeoutMs} ms; got ${JSON.stringify(this.messages).slice(0, 2000)}`),
        );
      }, timeoutMs);
      if (!check()) this.waiters.add(check);
    });
  }

  /** Posts `message` and waits for the drawing it causes. */
  async render(message: PanelToWebview | TestGraphMessage, timeoutMs?: number): Promise<MessageOf<'rendered'>> {
    const since = this.messages.length;
    await this.post(message);
    return this.waitForMessage('rendered', since, timeoutMs);
  }

  /** Runs `action` (a click, a key) and waits for the drawing it causes. */
  async after(action: () => Promise<unknown>, timeoutMs?: number): Promise<MessageOf<'rendered'>> {
    const since = this.messages.length;
    await action();
    return this.waitForMessage('rendered', since, timeoutMs);
  }

  /** The state the webview saved with `setState`. */
  state<T = Record<string, unknown>>(): Promise<T> {
    return this.page.evaluate('globalThis.terraceTestState') as Promise<T>;
  }

  /** Saves a screenshot as test-results/webview/<name>.png and returns its path. */
  async screenshot(name: string): Promise<string> {
    mkdirSync(resultsDir, { recursive: true });
    const file = path.join(resultsDir, `${name}.png`);
    await this.page.screenshot({ path: file });
    return file;
  }
}

/** A graph message as the tests write it: the server's model or the panel's, which the host packs. */
type TestGraphMessage = Omit<Extract<PanelToWebview, { type: 'graph' }>, 'graph'> & { graph: GraphModel | PanelModel };

/** The server's model carries file locations; the panel's does not (an empty graph is the same in both). */
function isServerGraph(graph: GraphModel | PanelModel): graph is GraphModel {
  return graph.modules.some((module) => 'location' in module) || graph.edges.some((edge) => 'location' in edge);
}

/** Packed, the modules and edges are columns. */
function isPacked(graph: GraphModel | PanelModel | PackedPanelModel): graph is PackedPanelModel {
  return !Array.isArray(graph.edges);
}
