import { elkLayout } from './elkLayout';
import type { Layout, LayoutInput } from './layoutGraph';
import { warmUp } from './layoutWarmUp';
import type { LayoutAnswer } from './pendingLayouts';

/**
 * The layout worker: layouts run here, off the panel's main thread. Messages: `{ id, input }` in,
 * `{ id, layout }` or `{ id, error }` out. The same bundle loaded as a page script (when no worker can
 * start) offers `terraceLayout` instead.
 */
export interface LayoutRequest {
  id: number;
  input: LayoutInput;
}
/** The worker says `{ ready: true }` once it runs and is warmed up (`layoutWarmUp.ts`), then answers each request. */
export type LayoutResponse = LayoutAnswer | { ready: true };

export async function layout(input: LayoutInput): Promise<Layout> {
  return elkLayout(input);
}

declare const WorkerGlobalScope: unknown;
const inWorker = typeof WorkerGlobalScope !== 'undefined' && typeof document === 'undefined';

if (inWorker) {
  // elkjs's bundle, loaded in a worker, has claimed `onmessage` for its own protocol: this replaces it.
  const scope = self as unknown as {
    onmessage: ((event: MessageEvent<LayoutRequest>) => void) | null;
    postMessage(message: LayoutResponse): void;
  };
  scope.onmessage = (event) => {
    const { id, input } = event.data;
    layout(input).then(
      (result) => scope.postMessage({ id, layout: result }),
      (error: unknown) => scope.postMessage({ id, error: error instanceof Error ? error.message : String(error) }),
    );
  };
  // Ready once warm: a layout asked for meanwhile would wait for the warm-up anyway.
  void warmUp()
    .catch(() => undefined)
    .then(() => scope.postMessage({ ready: true }));
} else {
  (globalThis as { terraceLayout?: typeof layout }).terraceLayout = layout;
}
