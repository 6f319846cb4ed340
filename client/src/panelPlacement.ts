import * as vscode from 'vscode';
import type { PanelPlacement } from './openingViews';

/**
 * Where Show Graph's panel would open now (`ViewColumn.Beside`): beside an editor, or alone in the editor area
 * when no tab but a graph panel (`viewType`) is open, for the layouts made ahead of its page (`openingViews.ts`).
 */
export function panelPlacement(viewType: string): PanelPlacement {
  const others = vscode.window.tabGroups.all.some((group) => group.tabs.some((tab) => !isPanelOf(tab, viewType)));
  return others ? 'beside' : 'alone';
}

/** A webview tab's view type carries a prefix of VS Code's own (`mainThreadWebview-terrace.graph`). */
function isPanelOf(tab: vscode.Tab, viewType: string): boolean {
  return tab.input instanceof vscode.TabInputWebview && tab.input.viewType.endsWith(viewType);
}
