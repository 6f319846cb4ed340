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
  port.on('message', (message: LayoutRequest | ChoiceRequest) => {
    if ('choice' in message) {
      port.postMessage(choose(message));
      return;
    }
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
  // Ready once elkjs is loaded, not warmed up with a layout of its own: the thread starts as a window does, when
  // no core is idle, and a warm-up (0.1-0.2 s of CPU alone, 0.4-0.9 s there) held up the views laid out ahead at
  // the first problems; the first of those warms elkjs up instead.
  port.postMessage({ ready: true } satisfies LayoutResponse);
}

function choose({ choice, graph, placement, known }: ChoiceRequest): ChoiceAnswer {
  try {
    return { choice, inputs: openingInputs(unpackGraph(graph), placement, known) };
  } catch (error) {
    return { choice, error: error instanceof Error ? error.message : String(error) };
  }
}
