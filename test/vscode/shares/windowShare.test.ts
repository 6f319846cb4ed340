import * as assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { type GraphModel, GraphRequest } from '../../../server/src/protocol';
import { showGraph } from '../realShape/panelTimings';
import { codeCacheWritten, runningApi, sleep, startupBreakdown, waitFor } from '../suite/helpers';
import { type EditFigures, probeEdit } from './probeEdit';
import { type HoverFigures, probeHover } from './probeHover';

/** Which extension this window has: the floor's (test/vscode/floor) or Terrace's VSIX. */
const SUBJECT = process.env.TERRACE_SHARE_SUBJECT;
/** Where this window's figures go, for the runner to set beside the other windows' (shares.mjs). */
const SHARE_FILE = process.env.TERRACE_SHARE_FILE;
/** How long after the first problems Show Graph runs (TERRACE_SHARE_GRAPH_AFTER_MS): at once by default. */
const GRAPH_AFTER_MS = Number(process.env.TERRACE_SHARE_GRAPH_AFTER_MS ?? 0);
/** When the runner opened the window, on the machine's one clock. */
const OPENED_AT = Number(process.env.TERRACE_WINDOW_OPENED_AT);
/**
 * Which window of its profile this is (TERRACE_SHARE_OPENED): `fresh` (a new profile's, the default), or, with the
 * runner's TERRACE_SHARE_AGAIN, `first-of-profile` (not counted; it leaves its caches) and then `again`.
 */
const OPENED = process.env.TERRACE_SHARE_OPENED ?? 'fresh';
/** The bundles whose compiled code a window keeps for the next (`codeCache.ts`). */
const CACHED_BUNDLES = ['client', 'languageServer', 'layoutThread'];
/** The layouts kept for the next window are written a second after the last one made (`layoutStore.ts`). */
const LAYOUTS_KEPT_MS = 1500;

/** What one fresh window measured, in ms: from the window opened, and from the command to the drawing. */
interface WindowFigures {
  subject: 'floor' | 'terrace';
  /** Which window of its profile it was (`OPENED`). */
  opened: string;
  /** Terrace's: the tabs open as the suite started (`openTabs`). */
  tabs?: string[];
  /** The window opened → the first problems in the editor (Terrace's with none: its first diagnostics published). */
  firstProblemsMs: number;
  /** The command → its webview drawn, on the page's clock. */
  drawnMs: number;
  /** Where the start-up went, ms after the window opened. */
  steps: Record<string, number | null>;
  /** Where the drawing's time went (Terrace's: to its panel, its page ready, the graph sent, the layout, drawn). */
  drawnSteps?: Record<string, unknown>;
  /** Terrace's: a first hover card on the panel just drawn, its questions answered. */
  hover?: HoverFigures;
  /** Terrace's: an edit that adds a read nobody writes, to its problem in the editor and the panel redrawn. */
  edit?: EditFigures;
}

interface FloorApi {
  times: { activatedAt: number; diagnosticsAt: number | undefined };
  nextDrawn(): Promise<{ drawnAt: number; pageAt: number; nodes: number }>;
}

async function floorWindow(): Promise<WindowFigures> {
  const extension = vscode.extensions.getExtension<FloorApi>('floor.floor');
  assert.ok(extension, 'the floor extension is installed');
  const api = await extension.activate();
  const diagnosticsAt = await waitFor('the floor’s diagnostic', () => api.times.diagnosticsAt, 60_000);
  const shown = vscode.languages.getDiagnostics().flatMap(([, list]) => list.map((d) => d.message));
  assert.deepEqual(shown, ['floor: active']);
  await sleep(GRAPH_AFTER_MS);
  const started = Date.now();
  const drawn = api.nextDrawn();
  await vscode.commands.executeCommand('floor.show');
  const { drawnAt, pageAt, nodes } = await drawn;
  assert.equal(nodes, 5, 'the floor’s webview drew its five nodes');
  return {
    subject: 'floor',
    opened: OPENED,
    firstProblemsMs: diagnosticsAt - OPENED_AT,
    drawnMs: drawnAt - started,
    steps: {
      extensionHostStarted: Math.round(performance.timeOrigin) - OPENED_AT,
      activated: api.times.activatedAt - OPENED_AT,
      firstDiagnosticsInEditor: diagnosticsAt - OPENED_AT,
    },
    drawnSteps: { toPageMs: pageAt - started, pageMs: drawnAt - pageAt },
  };
}

/** The tabs the window opened with (a window opened again restores its profile's last ones). */
function openTabs(): string[] {
  return vscode.window.tabGroups.all.flatMap((group) =>
    group.tabs.map((tab) =>
      tab.input instanceof vscode.TabInputWebview ? `webview ${tab.input.viewType}` : tab.label,
    ),
  );
}

async function terraceWindow(): Promise<WindowFigures> {
  const tabs = openTabs();
  // A first window of the profile opened no panel: none to restore, and Show Graph opens a new one, as the floor's.
  if (OPENED === 'again') assert.ok(!tabs.some((tab) => tab.endsWith('terrace.graph')), `no panel restored: ${tabs}`);
  const api = await runningApi();
  const steps = await startupBreakdown(api);
  assert.ok(steps, 'the runner said when the window opened');
  const firstProblems = steps.firstDiagnosticsInEditor ?? steps.diagnosticsPublished;
  assert.ok(firstProblems !== null, 'the server published its first diagnostics');
  await sleep(GRAPH_AFTER_MS);
  const { panel, timing } = await showGraph();
  // Whether the graph's layouts could be made ahead: the layout thread ready (maybe after the first problems, so
  // not in the start-up's breakdown) and the command, on the same clock as the graph's answer.
  const threadReady = api.startup.layoutThreadReadyAt;
  steps.layoutThreadReady = threadReady === undefined ? null : threadReady - OPENED_AT;
  steps.showGraph = panel.times.created - (timing.toPanelMs ?? 0) - OPENED_AT;
  const drawn = panel.reports.renders.at(-1)!;
  assert.ok(drawn.nodes + drawn.groups > 0, 'the panel drew the graph');
  const hover = await probeHover(panel);
  // The edit once the window has settled: the edges' outputs shown (the server's contracts done).
  await panel.reports.waitForOutputs((report) => report.version === drawn.version, 120_000);
  const folder = vscode.workspace.workspaceFolders![0]!.uri;
  // By method name: this bundle's request type is not the extension bundle's (see the graph panel's suite).
  const graph = await api.client.sendRequest<GraphModel | null>(GraphRequest.method, { folderUri: folder.toString() });
  assert.ok(graph, 'the server answers terrace/graph');
  const edit = await probeEdit(panel, graph, folder);
  panel.dispose();
  if (OPENED === 'again') {
    // What the first window of the profile left is what this one starts with.
    assert.equal(api.startup.server?.fromCodeCache, true, 'the server loaded the code cache its first window wrote');
  }
  return {
    subject: 'terrace',
    opened: OPENED,
    tabs,
    firstProblemsMs: firstProblems,
    drawnMs: timing.onScreenMs,
    steps,
    drawnSteps: { ...timing },
    hover,
    edit,
  };
}

/**
 * The first window of a profile that the next opens again: its first problems, and, in Terrace's, what it leaves the
 * next window (each bundle's code cache, the layouts made ahead of a panel and kept). It opens no panel: the workbench
 * would restore one it saved open (in code-server it saves its state when it likes, not as the panel closes).
 */
async function firstOfProfile(): Promise<void> {
  if (SUBJECT === 'floor') {
    const api = await vscode.extensions.getExtension<FloorApi>('floor.floor')!.activate();
    await waitFor('the floor’s diagnostic', () => api.times.diagnosticsAt, 60_000);
    return;
  }
  const api = await runningApi();
  const steps = await startupBreakdown(api);
  assert.ok(steps?.diagnosticsPublished, 'the server published its first diagnostics');
  await leaveCaches(api.codeCacheFolder);
}

/** Waits for each bundle's code cache in `folder`, then for the layouts kept to be written. */
async function leaveCaches(folder: string): Promise<void> {
  for (const bundle of CACHED_BUNDLES) await codeCacheWritten(folder, bundle);
  await sleep(LAYOUTS_KEPT_MS);
}

suite('a fresh window beside VS Code’s floor', () => {
  test(`${SUBJECT}: the window's first problems, then its webview drawn`, async function () {
    this.timeout(300_000);
    assert.ok(OPENED_AT > 0, 'the runner said when the window opened');
    assert.ok(SUBJECT === 'floor' || SUBJECT === 'terrace', `a subject: ${SUBJECT}`);
    await vscode.commands.executeCommand('workbench.action.closeSidebar');
    if (OPENED === 'first-of-profile') {
      await firstOfProfile();
      return;
    }
    const figures = SUBJECT === 'floor' ? await floorWindow() : await terraceWindow();
    assert.ok(figures.firstProblemsMs > 0 && figures.drawnMs > 0, JSON.stringify(figures));
    if (SHARE_FILE) writeFileSync(SHARE_FILE, `${JSON.stringify(figures, null, 2)}\n`);
    console.log(`window figures: ${JSON.stringify(figures)}`);
  });
});
