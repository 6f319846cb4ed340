import type { Drawn } from './graphCanvas';
import type { Point } from './layoutGraph';
import { NODE_HEIGHT } from './layoutOptions';
import type { PanelState } from './panelState';
import type { ViewNode } from './viewModel';
import type { Box, Viewport } from './viewport';

/** What the selection asks of the panel. */
export interface SelectionHost {
  /** Shows the selection again and remembers it. */
  highlight(): void;
  /** Opens a module in the editor. */
  open(id: string): void;
  /** Unfolds a folded node (its folder or group), or folds an unfolded group. */
  toggleGroup(name: string): void;
  /** Lists the reads that make a drawn edge, where it was clicked. */
  showEdge(id: string, event: MouseEvent): void;
  /** Only the paths between the two selected modules (P). */
  showPaths(): void;
  /** Leaves the selected modules out of the drawing (H). */
  hideSelection(): void;
  /** Folds the folder that holds a drawn node (Backspace). */
  foldParent(node: ViewNode | undefined): void;
  /** Focuses on the selected module (F). */
  focusSelection(): void;
  /** Back to the whole graph (Escape); false when nothing was focused. */
  clearFocus(): boolean;
  fit(): void;
  /** Whether the focus or the filter leaves modules out of the drawing. */
  narrowed(): boolean;
  /** Draws every module again, without focus or filter; resolves once drawn. */
  showAll(): Promise<void>;
}

/**
 * The selected nodes and the keyboard on the drawing: a click selects and opens (Ctrl, Cmd or Shift
 * adds to the selection), arrow keys move between nodes, Enter opens, F focuses, Escape leaves the
 * focus or the selection; a double click on the background fits. Only the node the keyboard is on
 * is in the tab order.
 */
export class Selection {
  /** The node that has the keyboard focus, or takes it when the drawing is tabbed into. */
  private current: string | undefined;

  constructor(
    private readonly state: Pick<PanelState, 'selected'>,
    private readonly canvas: { readonly element: HTMLElement; readonly shown: Drawn | undefined },
    private readonly viewport: Viewport,
    private readonly host: SelectionHost,
  ) {
    canvas.element.addEventListener('keydown', (event) => this.key(event));
    canvas.element.addEventListener('click', (event) => this.click(event));
    canvas.element.addEventListener('dblclick', (event) => {
      if (!(event.target as Element).closest('.node')) host.fit();
    });
  }

  /** The module that F focuses on: the one selected, or else the keyboard's. */
  get focusCandidate(): string | undefined {
    return this.state.selected.length === 1 ? this.state.selected[0] : this.current;
  }

  /** Selects `ids`, the keyboard on `current`, for the drawing about to be made. */
  select(ids: string[], current: string | undefined): void {
    this.state.selected = ids;
    this.current = current;
  }

  /** After a drawing: the selection keeps what is still drawn (or inside a drawn group). */
  afterDraw(): void {
    const shown = this.canvas.shown!;
    this.state.selected = this.drawnSelection();
    if (this.current) this.current = this.nodeFor(this.current);
    this.current ??= this.state.selected[0] ?? shown.view.nodes[0]?.id;
    for (const node of shown.view.nodes) {
      shown.drawing.nodes.get(node.id)!.setAttribute('tabindex', node.id === this.current ? '0' : '-1');
    }
  }

  /** Selects the modules of a cycle and brings them into view, showing the whole graph if need be. */
  selectCycle(cycle: string[]): void {
    const ids = [...new Set(cycle)];
    const hidden = ids.some((id) => !this.nodeFor(id));
    this.select(ids, ids[0]);
    if (hidden && this.host.narrowed()) {
      // A cycle partly outside the focus or the filter: show the whole graph to show the cycle.
      void this.host.showAll().then(() => this.reveal());
      return;
    }
    this.state.selected = this.drawnSelection();
    this.host.highlight();
    this.reveal();
  }

  /** Enter in the search box: selects the next match (`step` 1) or the previous (-1) and brings it into view. */
  nextMatch(matches: ((id: string) => boolean) | null, step: number): void {
    const shown = this.canvas.shown;
    if (!matches || !shown) return;
    const { view, layout } = shown;
    const found = view.nodes
      .filter((node) => node.members.some(matches))
      .sort((a, b) => layout.nodes[a.id]!.x - layout.nodes[b.id]!.x || layout.nodes[a.id]!.y - layout.nodes[b.id]!.y);
    if (!found.length) return;
    const at = found.findIndex((node) => node.id === this.current);
    const next = found[(at + step + found.length) % found.length]!;
    this.state.selected = [next.id];
    this.setCurrent(next.id);
    this.reveal();
    this.host.highlight();
  }

  private click(event: MouseEvent): void {
    if (this.viewport.dragged) {
      this.viewport.dragged = false;
      return;
    }
    const hit = (event.target as Element).closest('.edge-hit') as SVGPathElement | null;
    if (hit?.dataset.edge) {
      this.host.showEdge(hit.dataset.edge, event);
      return;
    }
    const element = (event.target as Element).closest('.node') as SVGGElement | null;
    if (!element) {
      if (this.state.selected.length) this.deselect();
      return;
    }
    const id = element.dataset.id!;
    if (event.ctrlKey || event.metaKey || event.shiftKey) {
      const selected = new Set(this.state.selected);
      if (selected.has(id)) selected.delete(id);
      else selected.add(id);
      this.state.selected = [...selected];
      this.setCurrent(id);
      this.host.highlight();
      return;
    }
    this.activate(id);
  }

  /** Click or Enter on a node: a module is selected and opened; a folded node unfolds. */
  private activate(id: string): void {
    const node = this.canvas.shown?.view.nodes.find((candidate) => candidate.id === id);
    if (!node) return;
    if (node.kind === 'group') {
      this.select([...node.members], node.members[0]);
      this.host.toggleGroup(node.fold!);
      return;
    }
    this.state.selected = [id];
    this.setCurrent(id);
    this.host.highlight();
    this.host.open(id);
  }

  private deselect(): void {
    this.state.selected = [];
    this.host.highlight();
  }

  private key(event: KeyboardEvent): void {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const node = (event.target as Element).closest?.('.node') as SVGGElement | null;
    const id = node?.dataset.id;
    const key = event.key;
    let handled = true;
    if (id && (key === 'Enter' || key === ' ')) this.activate(id);
    else if (id && key.startsWith('Arrow')) this.move(id, key);
    else if (key === 'f' || key === 'F') this.host.focusSelection();
    else if (key === 'p' || key === 'P') this.host.showPaths();
    else if (key === 'h' || key === 'H') this.host.hideSelection();
    else if (id && key === 'Backspace') this.host.foldParent(this.canvas.shown?.view.nodes.find((n) => n.id === id));
    else if (key === 'Escape') {
      if (!this.host.clearFocus()) this.deselect();
    } else if (key === '+' || key === '=') this.viewport.zoomBy(1.25);
    else if (key === '-' || key === '_') this.viewport.zoomBy(1 / 1.25);
    else if (key === '0') this.host.fit();
    else if (!id && key === 'ArrowLeft') this.viewport.panBy(60, 0);
    else if (!id && key === 'ArrowRight') this.viewport.panBy(-60, 0);
    else if (!id && key === 'ArrowUp') this.viewport.panBy(0, 60);
    else if (!id && key === 'ArrowDown') this.viewport.panBy(0, -60);
    else if (!id && key === 'Tab' && !event.shiftKey && this.current && event.target === this.canvas.element) {
      this.canvas.shown?.drawing.nodes.get(this.current)?.focus();
    } else handled = false;
    if (handled) event.preventDefault();
  }

  /**
   * Arrow keys on a node: up/down within its column, left/right to the nearest node of the next
   * column; going down (each column a row), left/right within the row and up/down between rows.
   */
  private move(id: string, key: string): void {
    const shown = this.canvas.shown;
    if (!shown) return;
    const { view, layout } = shown;
    const down = layout.direction === 'down';
    // A node's place along the columns and across them.
    const along = (point: Point): number => (down ? point.y : point.x);
    const across = (point: Point): number => (down ? point.x : point.y);
    const [back, forth, previous, next] = down
      ? ['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown']
      : ['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight'];
    const at = layout.nodes[id]!;
    const columns = layout.columns;
    const column = columns.indexOf(along(at));
    let candidates: ViewNode[];
    if (key === back || key === forth) {
      candidates = view.nodes.filter((node) => {
        const p = layout.nodes[node.id]!;
        return along(p) === along(at) && (key === forth ? across(p) > across(at) : across(p) < across(at));
      });
    } else if (key === previous || key === next) {
      const target = columns[column + (key === next ? 1 : -1)];
      candidates = target === undefined ? [] : view.nodes.filter((node) => along(layout.nodes[node.id]!) === target);
    } else return;
    const nearest = candidates.sort(
      (a, b) => Math.abs(across(layout.nodes[a.id]!) - across(at)) - Math.abs(across(layout.nodes[b.id]!) - across(at)),
    )[0];
    if (!nearest) return;
    this.setCurrent(nearest.id);
    const box = this.boxOf([nearest.id]);
    if (box) this.viewport.reveal(box);
    shown.drawing.nodes.get(nearest.id)?.focus();
  }

  private setCurrent(id: string): void {
    const nodes = this.canvas.shown?.drawing.nodes;
    if (this.current && this.current !== id) nodes?.get(this.current)?.setAttribute('tabindex', '-1');
    this.current = id;
    nodes?.get(id)?.setAttribute('tabindex', '0');
  }

  private reveal(): void {
    const box = this.boxOf(this.state.selected);
    if (box) this.viewport.reveal(box);
  }

  /** The selection as drawn nodes: a module inside a folded node counts as that node. */
  private drawnSelection(): string[] {
    return [...new Set(this.state.selected.map((id) => this.nodeFor(id)).filter((id) => id !== undefined))];
  }

  /** The drawn node showing module `id` (itself or the folded node holding it), if any. */
  private nodeFor(id: string): string | undefined {
    const shown = this.canvas.shown;
    if (shown?.drawing.nodes.has(id)) return id;
    return shown?.view.nodes.find((node) => node.members.includes(id))?.id;
  }

  private boxOf(ids: string[]): Box | undefined {
    const layout = this.canvas.shown?.layout;
    if (!layout) return undefined;
    const points = ids.map((id) => layout.nodes[id]).filter((point) => point !== undefined);
    if (!points.length) return undefined;
    const x = Math.min(...points.map((p) => p.x));
    const y = Math.min(...points.map((p) => p.y));
    return {
      x,
      y,
      width: Math.max(...points.map((p) => p.x)) + layout.nodeWidth - x,
      height: Math.max(...points.map((p) => p.y)) + NODE_HEIGHT - y,
    };
  }
}
