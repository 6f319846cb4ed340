import { parentPort } from 'node:worker_threads';
import type { CachedBundle } from '../../server/src/codeCache';
import type { PackedPanelModel } from '../../server/src/protocol';
import { elkLayout } from '../../webview/src/elkLayout';
import type { LayoutInput } from '../../webview/src/layoutGraph';
import type { LayoutRequest, LayoutResponse } from '../../webview/src/layoutWorker';
import { unpackGraph } from '../../webview/src/packedGraph';
import { openingInputs, type PanelPlacement, type PanelSize } from './openingViews';

/**
 * The graph panel's layouts in the extension host: the webview's own `elkLayout` (elkjs runs in Node
 * as in a browser), in a worker thread so that a large layout never holds up the extension host.
 * Messages as the webview's layout worker takes and gives them (`layoutWorker.ts`), and the choice of the views a
 * new page may open with (`ChoiceRequest`).
 */

/**
 * The views a new panel's page is likely to open with, chosen here for the host (`openingViews.ts`): 0.05-0.2 s
 * at 3,000 units that the extension host's own thread, busy with a panel opening then, would spend.
 */
export interface ChoiceRequest {
  choice: number;
  graph: PackedPanelModel;
  placement: PanelPlacement;
  known?: PanelSize;
}
export type ChoiceAnswer = { choice: number; inputs: LayoutInput[] } | { choice: number; error: string };

/**
 * A graph is on its way (`LayoutService.warmUp`): elkjs lays out two nodes meanwhile, unless it was asked for a view
 * already. Its first layout, cold, costs 60-90 ms alone (0.13-0.2 s in a window still busy), nearly all of it
 * elkjs's own first steps, whatever the view: done while the server sends the graph, not after.
 */
export interface WarmUpRequest {
  warmUp: true;
}

/** Two nodes in two columns, one edge: the least that runs elkjs's layered algorithm through. */
const WARM_UP: LayoutInput = {
  nodes: [
    { id: 'a', column: 0 },
    { id: 'b', column: 1 },
  ],
  edges: [{ id: 'b-a', from: 'b', to: 'a' }],
};

/**
 * Whether elkjs has been asked for anything yet (a warm-up, a view, or the views a page may open with): a warm-up
 * after any of these would only be in the way.
 */
let elkAsked = false;

function warmUp(): void {
  if (elkAsked) return;
  elkAsked = true;
  void elkLayout(WARM_UP).catch(() => undefined);
}

/** This bundle as the thread's entry loaded it (`layoutService.ts`), until its code cache is written. */
let bundle: CachedBundle | undefined;
/** The code cache is written once the layouts that follow the first (a panel's views made ahead) have paused this long. */
const CODE_CACHE_QUIET_MS = 1000;
let saveTimer: NodeJS.Timeout | undefined;

/** Told by the thread's entry how this bundle was loaded (`codeCache.ts`). */
export function codeCacheLoaded(loaded: CachedBundle): void {
  if (!loaded.fromCache) bundle = loaded;
}

function saveCodeCacheSoon(): void {
  if (!bundle) return;
  clearTimeout(saveTimer);
  saveTimer = setTimeout(() => {
    bundle?.save();
    bundle = undefined;
  }, CODE_CACHE_QUIET_MS);
}

const port = parentPort;
if (port) {
  port.on('message', (message: LayoutRequest | ChoiceRequest | WarmUpRequest) => {
    if ('choice' in message) {
      // Its views are laid out next.
      elkAsked = true;
      port.postMessage(choose(message));
      return;
    }
    if ('warmUp' in message) {
      // After the messages already here: a view to lay out warms elkjs up instead.
      setImmediate(warmUp);
      return;
    }
    elkAsked = true;
    const { id, input } = message;
    elkLayout(input).then(
      (layout) => {
        port.postMessage({ id, layout } satisfies LayoutResponse);
        saveCodeCacheSoon();
      },
      (error: unknown) =>
        port.postMessage({
          id,
          error: error instanceof Error ? error.message : String(error),
        } satisfies LayoutResponse),
    );
  });
  // Ready once elkjs is loaded, not warmed up yet: the thread starts as a window does, while the server reads and
  // analyses on the other core, and a warm-up then delayed the first problems (at 3,000 units 0.25 s, medians of
  // fifteen windows). It warms up once a graph is on its way (`WarmUpRequest`).
  port.postMessage({ ready: true } satisfies LayoutResponse);
}

function choose({ choice, graph, placement, known }: ChoiceRequest): ChoiceAnswer {
  try {
    return { choice, inputs: openingInputs(unpackGraph(graph), placement, known) };
  } catch (error) {
    return { choice, error: error instanceof Error ? error.message : String(error) };
  }
}
