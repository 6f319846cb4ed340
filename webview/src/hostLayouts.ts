import type { PanelToWebview, WebviewToPanel } from '../../server/src/protocol';
import type { Layout, LayoutInput } from './layoutGraph';
import { PendingLayouts } from './pendingLayouts';

/** How long the host may take before the webview lays out by itself: a layout of 3,000 modules takes seconds. */
const HOST_TIMEOUT_MS = 120_000;

/** Layout requests to the extension host, and their answers (`layout` messages). */
export class HostLayouts {
  private readonly pending = new PendingLayouts();

  constructor(private readonly post: (message: WebviewToPanel) => void) {}

  request(input: LayoutInput): Promise<Layout> {
    const { id, answer } = this.pending.add();
    const timer = setTimeout(
      () => this.pending.answered({ id, error: `no answer within ${HOST_TIMEOUT_MS / 1000} s` }),
      HOST_TIMEOUT_MS,
    );
    this.post({ type: 'layout', id, input });
    return answer.finally(() => clearTimeout(timer));
  }

  answered(message: Extract<PanelToWebview, { type: 'layout' }>): void {
    this.pending.answered(message);
  }
}
