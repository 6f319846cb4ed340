import type * as vscode from 'vscode';
import type { PanelPlacement, PanelSize } from './openingViews';

/** Where the areas are kept in the extension's global state. */
const KEY = 'terrace.graphPanelAreas';

/**
 * The drawing area of the last graph panel shown beside an editor, and of the last shown alone in the editor area,
 * kept across windows and workspaces (the extension's global state): a new workspace's first panel is laid out
 * ahead for the area a panel had where it opens (`openingViews.ts`), not for a guess of it.
 */
export class PanelAreas {
  constructor(private readonly state: vscode.Memento) {}

  of(placement: PanelPlacement): PanelSize | undefined {
    const area = this.kept()[placement];
    return isArea(area) ? area : undefined;
  }

  /** A page reported its drawing area (its `ready` message); one of no size (a hidden panel's) is not kept. */
  remember(placement: PanelPlacement, area: unknown): void {
    if (!isArea(area) || area.width <= 0 || area.height <= 0) return;
    const kept = this.kept();
    const width = Math.round(area.width);
    const height = Math.round(area.height);
    const known = kept[placement];
    if (isArea(known) && known.width === width && known.height === height) return;
    void this.state.update(KEY, { ...kept, [placement]: { width, height } });
  }

  private kept(): Partial<Record<PanelPlacement, unknown>> {
    return this.state.get<Partial<Record<PanelPlacement, unknown>>>(KEY) ?? {};
  }
}

function isArea(value: unknown): value is PanelSize {
  if (!value || typeof value !== 'object') return false;
  const { width, height } = value as Partial<PanelSize>;
  return typeof width === 'number' && typeof height === 'number' && Number.isFinite(width) && Number.isFinite(height);
}
