import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { GraphPanel } from '../../../client/src/graphPanel';
import type { RenderedReport } from '../../../client/src/panelReports';

/** How long the panel took, where users wait: what the real-shape suites write to test-results/vscode. */
export interface Timing {
  /** Milliseconds from the command (or the edit) to the drawing's report in the extension host. */
  ms: number;
  /** To the drawing on screen (the page's clock, the same machine's): `ms` less the report's way back to the host. */
  onScreenMs: number;
  /** Where they went: to the panel made, to its webview loaded and ready, to the graph sent to it. */
  toPanelMs?: number;
  toReadyMs?: number;
  /** Of the webview's load: the command to its page's navigation begun, and from then its own script's. */
  toPageMs?: number;
  pageMs?: number;
  toGraphMs?: number;
  /** The graph sent: asked of the server and answered, from the command (negative: before it, laid out ahead). */
  toGraphAskedMs?: number;
  toGraphAnsweredMs?: number;
  /** Of the layout's wait in the webview, the extension host's: from the request to the layout made (its thread's). */
  hostLayoutMs?: number;
  /** Whether the host had made that layout ahead, while the page loaded. */
  layoutAhead?: boolean;
  /** Whether the graph came in the page's HTML (the host had it when the panel opened), not in a message. */
  graphInPage?: boolean;
  /** Of which the webview's own share, from the graph message to the drawing, and the layout's. */
  inPanelMs: number;
  layoutMs: number;
  layoutIn: RenderedReport['layoutIn'];
  /** Of `inPanelMs`: the graph unpacked and indexed, the view built, the wait for its layout, the drawing, the frame that shows it. */
  steps: RenderedReport['steps'];
  nodes: number;
  folded: number;
}

export function timing(started: number, drawn: RenderedReport): Timing {
  return {
    ms: Date.now() - started,
    onScreenMs: drawn.drawnAt - started,
    inPanelMs: drawn.ms,
    layoutMs: drawn.layoutMs,
    layoutIn: drawn.layoutIn,
    steps: drawn.steps,
    nodes: drawn.nodes,
    folded: drawn.groups,
  };
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** Show Graph from the command palette's command, timed to the drawing. */
export async function showGraph(): Promise<{ panel: GraphPanel; timing: Timing }> {
  const started = Date.now();
  const panel = await vscode.commands.executeCommand<GraphPanel | undefined>('terrace.showGraph');
  assert.ok(panel, 'Show Graph opened the panel');
  const drawn = await panel.reports.waitForRender(undefined, 60_000);
  const { created, ready, pageMs, pageAt, graphSent, graphAsked, graphAnswered, graphInPage } = panel.times;
  const { layoutAsked, layoutMade, layoutAhead } = panel.times;
  return {
    panel,
    timing: {
      ...timing(started, drawn),
      toPanelMs: created - started,
      toReadyMs: (ready ?? created) - started,
      toPageMs: pageAt !== undefined ? pageAt - started : undefined,
      pageMs,
      toGraphMs: (graphSent ?? created) - started,
      toGraphAskedMs: graphAsked !== undefined ? graphAsked - started : undefined,
      toGraphAnsweredMs: graphAnswered !== undefined ? graphAnswered - started : undefined,
      hostLayoutMs: layoutAsked !== undefined && layoutMade !== undefined ? layoutMade - layoutAsked : undefined,
      layoutAhead,
      graphInPage: graphInPage === true,
    },
  };
}
