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
    const area = this.state.get<Partial<Record<PanelPlacement, unknown>>>(KEY)?.[placement];
    return isArea(area) ? area : undefined;
  }

  /** A page reported its drawing area (its `ready` message); one of no size (a hidden panel's) is not kept. */
  remember(placement: PanelPlacement, area: unknown): void {
    if (!isArea(area) || area.width <= 0 || area.height <= 0) return;
    const kept = { width: Math.round(area.width), height: Math.round(area.height) };
    const known = this.of(placement);
    if (known?.width === kept.width && known.height === kept.height) return;
    const areas = this.state.get<Partial<Record<PanelPlacement, unknown>>>(KEY) ?? {};
    void this.state.update(KEY, { ...areas, [placement]: kept });
  }
}

function isArea(value: unknown): value is PanelSize {
  if (!value || typeof value !== 'object') return false;
  const { width, height } = value as Partial<PanelSize>;
  return typeof width === 'number' && typeof height === 'number' && Number.isFinite(width) && Number.isFinite(height);
}
