import { parentPort } from 'node:worker_threads';
import { elkLayout } from '../../webview/src/elkLayout';
import { warmUp } from '../../webview/src/layoutWarmUp';
import type { LayoutRequest, LayoutResponse } from '../../webview/src/layoutWorker';

/**
 * The graph panel's layouts in the extension host: the webview's own `elkLayout` (elkjs runs in Node
 * as in a browser), in a worker thread so that a large layout never holds up the extension host.
 * Messages as the webview's layout worker takes and gives them (`layoutWorker.ts`).
 */
const port = parentPort;
if (port) {
  port.on('message', ({ id, input }: LayoutRequest) => {
    elkLayout(input).then(
      (layout) => port.postMessage({ id, layout } satisfies LayoutResponse),
      (error: unknown) =>
        port.postMessage({
          id,
          error: error instanceof Error ? error.message : String(error),
        } satisfies LayoutResponse),
    );
  });
  void warmUp()
    .catch(() => undefined)
    .then(() => port.postMessage({ ready: true } satisfies LayoutResponse));
}
