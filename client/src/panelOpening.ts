import type { LogOutputChannel } from 'vscode';
import type { GraphMessage } from '../../server/src/protocol';
import { type LayoutInput, layoutKey } from '../../webview/src/layoutGraph';
import { folderKey } from './folderKey';
import type { LayoutService } from './layoutService';
import { laidOutAheadOnceSent, type PanelPlacement, type PanelSize } from './openingViews';
import type { PanelGraph } from './panelGraphs';

/** The layouts a graph sent to a page comes with. */
export type FirstLayouts = Pick<GraphMessage, 'opening' | 'ahead'>;

/**
 * What a panel's page opens with: the layout of the view the last page on the folder opened with, and the
 * layouts made ahead of it (`openingViews.ts`), sent with the page's first graph so that its first view draws
 * without asking for one (a round trip through VS Code, a tenth of a reopened panel's time). The view a page
 * opens with is noted in turn: its first layout request, if it makes one. One per panel.
 */
export class PanelOpening {
  /** The page has just loaded: the next graph sent is its first. */
  private fresh = true;
  private noting = false;

  constructor(
    private readonly layouts: LayoutService,
    /** Where the panel is, beside an editor or alone (`panelPlacement.ts`), and the area a panel there had before. */
    private readonly where: () => { placement: PanelPlacement; known?: PanelSize },
    /** Where a choice of layouts ahead that could not be made is logged (its page asks for its view as without). */
    private readonly output: Pick<LogOutputChannel, 'debug'>,
  ) {}

  /** The page (re)loaded: the next graph it is sent is its first. */
  pageLoaded(): void {
    this.fresh = true;
  }

  /**
   * Resolves once a new page's graph can come with the layouts made ahead of it: when they are made, if the
   * folder's graph was laid out ahead before the panel (`panelAhead.ts`). Else they are started once the graph
   * is sent (`withGraph`): the page does not wait for their choice.
   */
  async aheadOf(graph: PanelGraph | undefined): Promise<void> {
    if (graph && this.layouts.choseFor(graph.packed)) await this.layouts.aheadDone(graph.packed);
  }

  /** The layouts a graph sent to the page on `folderUri` comes with: none unless it is the page's first. */
  withGraph(folderUri: string, graph: PanelGraph): FirstLayouts {
    if (!this.fresh) return {};
    this.fresh = false;
    this.noting = true;
    const key = openingViews.get(folderKey(folderUri));
    const kept = key === undefined ? undefined : this.layouts.keptLayout(key);
    const opening = kept && { key: key!, layout: kept };
    // A page that has drawn nothing yet asks for its first view's layout once loaded: made while it loads, once
    // the message is on its way (the extension host writes its messages to VS Code in a later task).
    if (!opening && laidOutAheadOnceSent(graph.packed))
      setTimeout(() => {
        const { placement, known } = this.where();
        this.layouts
          .layoutAheadOf(graph.packed, placement, known)
          .catch((error: unknown) =>
            this.output.debug(`graph panel: the layouts ahead of a new page were not made: ${String(error)}`),
          );
      }, 0);
    return { opening, ahead: this.layouts.madeAhead() };
  }

  /** The page asked for a layout: the first since its graph came is of the view it opens with. */
  requested(folderUri: string, input: LayoutInput): void {
    if (this.noting) openingViews.set(folderKey(folderUri), layoutKey(input));
    this.noting = false;
  }

  /** The page drew: a layout it asks for from now on is not of its opening view. */
  drew(): void {
    this.noting = false;
  }
}

/** Per folder (`folderKey`), the key of the view its last panel opened with. */
const openingViews = new Map<string, string>();
