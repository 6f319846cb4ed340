import { parentPort } from 'node:worker_threads';
import type { CachedBundle } from '../../server/src/codeCache';
import { elkLayout } from '../../webview/src/elkLayout';
import type { LayoutRequest, LayoutResponse } from '../../webview/src/layoutWorker';

/**
 * The graph panel's layouts in the extension host: the webview's own `elkLayout` (elkjs runs in Node
 * as in a browser), in a worker thread so that a large layout never holds up the extension host.
 * Messages as the webview's layout worker takes and gives them (`layoutWorker.ts`).
 */

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
  port.on('message', ({ id, input }: LayoutRequest) => {
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
