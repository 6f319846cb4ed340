// The graph panel's layout rows of `npm run bench`: elkjs with the panel's options on synthetic monorepos, and
// the extension's layout thread as a window starts it (elkjs cold, with and without a warm-up before the first view).
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { LayoutService } from '../../client/src/layoutService';
import { openingInputs } from '../../client/src/openingViews';
import { WorkspaceAnalysis } from '../../server/src/engine/analysis';
import { defaultOptions, loadAnalysisOptions } from '../../server/src/engine/config';
import { toPanelModel } from '../../server/src/languageServer/panelModel';
import { elkLayout } from '../../webview/src/elkLayout';
import type { Layout, LayoutInput } from '../../webview/src/layoutGraph';
import { NODE_HEIGHT } from '../../webview/src/layoutOptions';
import { edgeCrossings } from '../webview/edgeCrossings';
import { repeat, type Summary, summarize } from './samples';

export interface LayoutFigures {
  time: Summary;
  crossings: number;
  /** After one edge is removed: the mean distance a module moves, and the share that moves less than a node's height. */
  meanMove: number;
  stayed: number;
  /** The crossings of that layout. */
  crossingsAfter: number;
  /** Every module in the box of its first folder's group (`groupBands.ts`): time and crossings. */
  boxed: { time: Summary; crossings: number };
}

/** The panel's layout (elkjs with the panel's options) in Node, on the graph of the synthetic monorepo at `root`. */
export async function measureLayout(root: string, quick: boolean): Promise<LayoutFigures> {
  const analysis = new WorkspaceAnalysis(root, defaultOptions());
  await analysis.load();
  const result = analysis.result();
  const input: LayoutInput = {
    nodes: result.modules.map((module) => ({ id: module.id, column: module.level })),
    edges: [...new Set(result.edges.map((edge) => `${edge.from}\u0000${edge.to}`))].map((key, index) => {
      const [from, to] = key.split('\u0000') as [string, string];
      return { id: `e${index}`, from, to };
    }),
  };
  let layout: Layout | undefined;
  const timed = await repeat(quick ? 3 : 7, async () => {
    layout = await elkLayout(input);
    return layout.ms;
  });
  // Removing an edge into a module that has another into the same level keeps every level, so every
  // column; the panel lays the new graph out seeded with the drawing it shows.
  const changed = await elkLayout({
    ...input,
    edges: input.edges.filter((edge) => edge !== removable(input)),
    previous: layout,
  });
  const moves = input.nodes.map((node) => Math.abs(changed.nodes[node.id]!.y - layout!.nodes[node.id]!.y));
  const banded: LayoutInput = {
    ...input,
    nodes: input.nodes.map((node) => ({ ...node, band: node.id.split('/')[0]! })),
  };
  let boxed: Layout | undefined;
  const boxedTime = await repeat(quick ? 2 : 5, async () => {
    boxed = await elkLayout(banded);
    return boxed.ms;
  });
  return {
    time: timed,
    crossings: edgeCrossings(Object.values(layout!.edges)),
    meanMove: moves.reduce((sum, move) => sum + move, 0) / moves.length,
    stayed: moves.filter((move) => move < NODE_HEIGHT).length / moves.length,
    crossingsAfter: edgeCrossings(Object.values(changed.edges)),
    boxed: { time: boxedTime, crossings: edgeCrossings(Object.values(boxed!.edges)) },
  };
}

/** An edge whose removal changes no module's level: its reader has another edge to a writer of the same level. */
function removable(input: LayoutInput): LayoutInput['edges'][number] {
  const column = new Map(input.nodes.map((node) => [node.id, node.column]));
  return input.edges.find((edge) =>
    input.edges.some(
      (other) => other !== edge && other.from === edge.from && column.get(other.to) === column.get(edge.to),
    ),
  )!;
}

export interface ThreadStartFigures {
  nodes: number;
  /** The thread started → ready (elkjs loaded), without a code cache of its own: a profile's first window. */
  ready: Summary;
  /** The first view's layout asked as soon as the thread is ready: elkjs cold. */
  cold: Summary;
  /** The same, asked `leadMs` after a warm-up was (`LayoutService.warmUp`: the graph on its way). */
  warmedUp: Summary;
  leadMs: number;
}

/** How long a graph takes to come from the server once it says it changed, at a few hundred modules. */
const LEAD_MS = 100;

/**
 * The layout thread as the extension starts it (`dist/layoutThread.js`, built by `node esbuild.mjs`), a new thread
 * each run (elkjs cold in each), laying out the first view of the folder at `root` as a new panel opens with it.
 */
export async function measureThreadStart(root: string, runs: number): Promise<ThreadStartFigures> {
  const analysis = new WorkspaceAnalysis(root, await loadAnalysisOptions(root));
  await analysis.load();
  const input = openingInputs(toPanelModel(analysis.result(), 1), 'beside')[0]!;
  const script = path.join(__dirname, '..', '..', 'dist', 'layoutThread.js');
  const ready: number[] = [];
  const cold: number[] = [];
  const warmedUp: number[] = [];
  for (let run = 0; run < runs; run++) {
    for (const warm of [false, true]) {
      const cacheFolder = mkdtempSync(path.join(os.tmpdir(), 'terrace-bench-thread-'));
      const service = new LayoutService(script, undefined, cacheFolder);
      try {
        let started = performance.now();
        if (!(await service.startSoon())) throw new Error('the layout thread did not start');
        ready.push(performance.now() - started);
        if (warm) {
          service.warmUp();
          await new Promise((resolve) => setTimeout(resolve, LEAD_MS));
        }
        started = performance.now();
        await service.layout(input);
        (warm ? warmedUp : cold).push(performance.now() - started);
      } finally {
        service.dispose();
        rmSync(cacheFolder, { recursive: true, force: true });
      }
    }
  }
  return {
    nodes: input.nodes.length,
    ready: summarize(ready),
    cold: summarize(cold),
    warmedUp: summarize(warmedUp),
    leadMs: LEAD_MS,
  };
}
