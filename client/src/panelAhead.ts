import type * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { onGraphChanged } from './graphChanges';
import { GraphPanel } from './graphPanel';
import type { LayoutService } from './layoutService';
import type { PanelAreas } from './panelAreas';
import { panelGraphs } from './panelGraphs';
import { panelPlacement } from './panelPlacement';

/**
 * Above this many modules a folder's graph is not fetched unasked: at 11,024 units packing it takes the server
 * 0.08–0.19 s in a window still starting, and fetched ahead it was drawn no sooner (the server says the graph
 * changed only once the first problems of thousands of files are out).
 */
const MOST_MODULES = 5_000;

/**
 * The first panel's layouts made before it is opened: when a folder's first graph is known, the views
 * a new panel opens with (`openingViews.ts`) are laid out in the layout thread, so that Show Graph at
 * a fresh window draws without waiting for elkjs. Once per folder, while no panel is open.
 */
export function layOutPanelsAhead(
  client: LanguageClient,
  layouts: LayoutService,
  areas: PanelAreas,
  modules: () => number,
  output: vscode.LogOutputChannel,
): vscode.Disposable {
  const done = new Set<string>();
  // Made first, so that a change forgets a folder's graph before the listener below asks for it.
  const graphs = panelGraphs(client);
  return onGraphChanged(client)(async ({ folderUri }) => {
    // Whether or not its views are laid out ahead, elkjs warms up while the graph comes.
    layouts.warmUp();
    if (done.has(folderUri) || GraphPanel.currentPanel || modules() > MOST_MODULES) return;
    done.add(folderUri);
    try {
      const fetched = await graphs.get(folderUri);
      if (fetched && !GraphPanel.currentPanel) {
        const placement = panelPlacement(GraphPanel.viewType);
        await layouts.layoutAheadOf(fetched.packed, placement, areas.of(placement));
      }
    } catch (error) {
      output.debug(`graph panel: the layouts ahead of ${folderUri} were not made: ${String(error)}`);
    }
  });
}
