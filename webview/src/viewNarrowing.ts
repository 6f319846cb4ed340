import type { GraphIndex } from './graphIndex';
import type { PanelState } from './panelState';
import type { Selection } from './selection';
import type { SearchBox } from './toolbar';

/**
 * The changes to the view that narrow the drawing to part of the graph, from the selection (or, for a
 * focus, from the host), and the one that shows the whole graph again: a focus on one module, the paths
 * between two, modules hidden. The focus bar (`focusBar.ts`) shows what narrows it and its toggles.
 */
export class ViewNarrowing {
  /** `redraw`: lays out and draws the view again (`refit`: fits it); resolves once drawn. */
  constructor(
    private readonly state: PanelState,
    private readonly selection: Selection,
    private readonly search: SearchBox,
    private readonly index: () => GraphIndex | undefined,
    private readonly redraw: (refit: boolean) => Promise<void>,
  ) {}

  /** Whether the focus, the paths, hidden modules or the filter leave modules out of the drawing. */
  narrowed(): boolean {
    const view = this.state.view;
    return !!view.focus || !!view.paths || view.hidden.length > 0 || view.filter;
  }

  focusModule(id: string): void {
    if (!this.index()?.byId.has(id)) return;
    this.state.view.focus = { id, upstream: true, downstream: true, hops: null };
    this.state.view.paths = null;
    this.state.view.filter = false;
    this.selection.select([id], id);
    void this.redraw(true);
  }

  focusSelection(): void {
    const id = this.selection.focusCandidate;
    if (id) this.focusModule(id);
  }

  /** Only the paths between the two selected modules. */
  showPaths(): void {
    const [from, to] = this.selectedModules();
    if (!from || !to || this.state.selected.length !== 2) return;
    this.state.view.paths = { from, to };
    this.state.view.focus = null;
    void this.redraw(true);
  }

  /** Leaves the selected modules out of the drawing. */
  hideSelection(): void {
    const modules = this.selectedModules();
    if (!modules.length) return;
    this.state.view.hidden = [...new Set([...this.state.view.hidden, ...modules])];
    this.selection.select([], undefined);
    void this.redraw(false);
  }

  showAll(): Promise<void> {
    this.state.view.paths = null;
    this.state.view.hidden = [];
    this.state.view.focus = null;
    this.state.view.filter = false;
    this.search.showFilter(false);
    return this.redraw(false);
  }

  /** The selected ids that are modules of the graph. */
  private selectedModules(): string[] {
    return this.state.selected.filter((id) => this.index()?.byId.has(id));
  }
}
