import type { GraphModel, PanelCommand, WebviewToPanel } from '../../server/src/protocol';
import { CyclesBanner } from './cyclesBanner';
import { h } from './dom';
import { exportDrawing } from './exportImage';
import { firstView, READABLE_TITLE } from './firstView';
import { FocusBar } from './focusBar';
import { GraphCanvas } from './graphCanvas';
import { GroupBar } from './groupBar';
import { LayoutCache } from './layoutCache';
import type { LayoutClient } from './layoutClient';
import { Legend } from './legend';
import { type PanelState, restoreState, type ViewEditor } from './panelState';
import { plural } from './plural';
import { TITLE_SIZE } from './render';
import { Selection } from './selection';
import { StatusLine } from './statusLine';
import { SearchBox, toolbar } from './toolbar';
import { NodeTooltips } from './tooltip';
import { buildView, GraphIndex, matcher, type ViewOptions } from './viewModel';
import { type Transform, Viewport } from './viewport';

export interface PanelHost {
  post(message: WebviewToPanel): void;
  saveState(state: PanelState): void;
  savedState: PanelState | undefined;
}

/**
 * The graph panel: wires its parts (toolbar and search, group and focus bars, the drawing, the
 * selection, banner, legend, status line), holds the state they share and answers the extension's
 * messages. Each change runs view model → layout (in the worker) → drawing; a drawing that replaces
 * another keeps its zoom, focus and selection.
 */
export class GraphPanelView {
  private readonly state: PanelState;
  private graph: GraphModel | undefined;
  private index: GraphIndex | undefined;
  private readonly layoutCache: LayoutCache;
  private readonly canvas = new GraphCanvas();
  private readonly viewport: Viewport;
  private readonly tooltips: NodeTooltips;
  private readonly search: SearchBox;
  private readonly groups: GroupBar;
  private readonly focus: FocusBar;
  private readonly selection: Selection;
  private readonly banner: CyclesBanner;
  private readonly legend: Legend;
  private readonly status: StatusLine;
  /** Increases with each update; a layout that finishes after a newer update started is dropped. */
  private generation = 0;
  private fitNext: boolean;
  private saveTimer: ReturnType<typeof setTimeout> | undefined;
  /** True while the view is as the last fit left it. */
  private autoFit = false;
  private fitting = false;

  constructor(
    container: HTMLElement,
    private readonly layouts: LayoutClient,
    private readonly host: PanelHost,
  ) {
    this.state = restoreState(host.savedState);
    this.fitNext = this.state.transform === null;
    this.layoutCache = new LayoutCache(layouts);
    const editor: ViewEditor = {
      options: this.state.view,
      redraw: (refit) => this.redraw(refit),
      highlight: () => this.highlight(),
    };
    this.search = new SearchBox(editor, (step) => this.selection.nextMatch(matcher(this.state.view.search), step));
    this.groups = new GroupBar(editor);
    this.focus = new FocusBar(editor, () => this.focusSelection());
    this.legend = new Legend(this.state.legend, (shown) => {
      this.state.legend = shown;
      this.saveState();
    });
    this.banner = new CyclesBanner((cycle) => this.selection.selectCycle(cycle));
    const canvas = this.canvas;
    this.viewport = new Viewport(
      canvas.element,
      canvas.root,
      (transform) => this.transformed(transform),
      // A view the user has not moved since it was fitted stays fitted when the panel is resized.
      () => {
        if (this.autoFit) this.fit();
      },
    );
    // Fitting never makes a title smaller than the editor's smallest text: a large graph scrolls instead.
    this.viewport.readableZoom = READABLE_TITLE / TITLE_SIZE;
    this.selection = new Selection(this.state, canvas, this.viewport, {
      highlight: () => this.highlight(),
      open: (id) => this.host.post({ type: 'openModule', id }),
      toggleGroup: (name) => this.groups.toggle(name),
      foldParent: (node) => this.groups.foldParent(node),
      focusSelection: () => this.focusSelection(),
      clearFocus: () => this.focus.clear(),
      fit: () => this.fit(),
      narrowed: () => !!this.state.view.focus || this.state.view.filter,
      showAll: () => this.showAll(),
    });
    this.tooltips = new NodeTooltips(canvas.element, (id) => {
      const node = canvas.shown?.view.nodes.find((candidate) => candidate.id === id);
      return node && this.index ? { node, index: this.index } : undefined;
    });
    this.status = new StatusLine(canvas.element);
    const bar = toolbar(
      {
        search: this.search,
        groupBy: this.groups.chooser,
        focusTarget: this.focus.target,
        focusBar: this.focus.element,
        legendToggle: this.legend.toggle,
      },
      {
        zoomBy: (factor) => this.viewport.zoomBy(factor),
        fit: () => this.fit(),
        export: (format) => void this.export(format),
      },
    );
    // The progress bar lies over the top of the drawing: showing it must not resize the canvas.
    const main = h('div', { class: 'main' }, canvas.element, this.status.progress);
    container.append(bar, this.banner.element, this.groups.element, main, this.legend.element, this.status.element);
    if (this.state.transform) this.viewport.set(this.state.transform);
  }

  // ---- messages from the host ----

  showGraph(graph: GraphModel, folderUri: string): void {
    const first = !this.graph;
    if (this.state.folderUri !== folderUri) {
      if (this.state.folderUri !== undefined) this.resetView();
      this.state.folderUri = folderUri;
    }
    this.graph = graph;
    this.index = new GraphIndex(graph);
    if (first && this.host.savedState === undefined) {
      const panel = this.canvas.element;
      Object.assign(this.state.view, firstView(this.index, { width: panel.clientWidth, height: panel.clientHeight }));
    }
    this.groups.graphChanged(this.index);
    this.banner.show(graph.cycles);
    void this.update();
  }

  focusModule(id: string): void {
    if (!this.index?.byId.has(id)) return;
    this.state.view.focus = { id, upstream: true, downstream: true };
    this.state.view.filter = false;
    this.selection.select([id], id);
    this.fitNext = true;
    void this.update();
  }

  runCommand(command: PanelCommand): void {
    switch (command) {
      case 'fit':
        this.fit();
        break;
      case 'exportSvg':
        void this.export('svg');
        break;
      case 'exportPng':
        void this.export('png');
        break;
    }
  }

  // ---- the update cycle: view → layout (worker) → drawing ----

  private redraw(refit: boolean): void {
    if (refit) this.fitNext = true;
    void this.update();
  }

  private async update(): Promise<void> {
    const index = this.index;
    if (!index) return;
    const generation = ++this.generation;
    const started = performance.now();
    const view = buildView(index, this.state.view);
    const lookup = this.layoutCache.lookup(view, this.canvas.nodeWidth(view), this.canvas.shown?.layout);
    let layout = lookup.layout;
    if (!layout) {
      this.status.busy(`Laying out ${plural(view.nodes.length, 'node')}…`);
      try {
        layout = await lookup.compute();
      } catch (error) {
        if (generation === this.generation) {
          this.status.idle();
          this.host.post({ type: 'problem', message: `layout failed: ${String(error)}` });
          this.status.say('The layout failed; see the Terrace output.');
        }
        return;
      }
    }
    if (generation !== this.generation) return;
    this.canvas.draw(view, layout, index);
    this.afterDraw();
    await nextFrame();
    if (generation !== this.generation) return;
    this.status.idle();
    const modules = view.nodes.filter((node) => node.kind === 'module').length;
    this.host.post({
      type: 'rendered',
      version: this.graph?.version ?? 0,
      nodes: modules,
      groups: view.nodes.length - modules,
      edges: view.edges.length,
      levels: view.columns.length,
      ms: Math.round(performance.now() - started),
      layoutMs: Math.round(layout.ms),
      worker: this.layouts.inWorker,
      titlePx: TITLE_SIZE * this.viewport.transform.k,
      focus: this.state.view.focus && this.index?.byId.has(this.state.view.focus.id) ? this.state.view.focus.id : null,
      boxes: [...document.querySelectorAll('g.group-box-frame')].map((frame) => frame.getAttribute('data-group') ?? ''),
    });
  }

  private afterDraw(): void {
    const view = this.canvas.shown!.view;
    this.selection.afterDraw();
    this.canvas.noteIfEmpty(this.graph, this.state.view);
    if (this.fitNext) {
      this.fitNext = false;
      this.fit();
    } else {
      this.canvas.positionHeadings(this.viewport.transform);
    }
    this.canvas.drawHeadings(this.viewport.transform);
    this.groups.render(view);
    this.focus.render(this.index);
    this.applyHighlights();
    this.status.show(this.graph!, view);
    this.legend.showRunStates(!!this.graph?.modules.some((module) => module.runState));
    this.legend.showUnits(!!this.graph?.modules.some((module) => module.kind === 'unit'));
    this.legend.showComponents(!!this.graph?.modules.some((module) => module.kind === 'component'));
    this.saveState();
  }

  /** Selection and search matches on the drawing, the match count, whether F can focus. */
  private applyHighlights(): void {
    const view = this.canvas.shown?.view;
    if (!view) return;
    const matches = matcher(this.state.view.search);
    const selected = this.state.selected;
    this.canvas.highlight(new Set(selected), matches);
    this.search.showCount(matches, view, this.graph?.modules.length ?? 0);
    this.focus.enableTarget(selected.length === 1 && !!this.graph?.modules.some((module) => module.id === selected[0]));
  }

  private highlight(): void {
    this.applyHighlights();
    this.saveState();
  }

  // ---- focus ----

  private focusSelection(): void {
    const id = this.selection.focusCandidate;
    if (id) this.focusModule(id);
  }

  private showAll(): Promise<void> {
    this.state.view.focus = null;
    this.state.view.filter = false;
    this.search.showFilter(false);
    return this.update();
  }

  // ---- pan and zoom, export ----

  private fit(): void {
    const box = this.canvas.shown?.drawing.bounds;
    if (!box) return;
    this.fitting = true;
    this.viewport.fit({ ...box, y: box.y - 24, height: box.height + 24 });
    this.fitting = false;
    this.autoFit = true;
  }

  private transformed(transform: Transform): void {
    if (!this.fitting) this.autoFit = false;
    this.state.transform = transform;
    this.canvas.positionHeadings(transform);
    this.tooltips.hide();
    clearTimeout(this.saveTimer);
    this.saveTimer = setTimeout(() => this.saveState(), 200);
  }

  private async export(format: 'svg' | 'png'): Promise<void> {
    const shown = this.canvas.shown;
    if (!shown) return;
    this.status.busy(`Exporting ${format.toUpperCase()}…`);
    try {
      const data = await exportDrawing(format, this.canvas.root, this.canvas.defs, shown);
      this.host.post({ type: 'export', format, data });
    } catch (error) {
      this.host.post({ type: 'problem', message: `export failed: ${String(error)}` });
    } finally {
      this.status.idle();
      this.status.say('');
    }
  }

  // ---- state ----

  /** Another folder's graph: nothing of the last view carries over. */
  private resetView(): void {
    const fresh: ViewOptions = { groupBy: null, collapsed: [], focus: null, search: '', filter: false };
    // In place: the toolbar's parts edit this same object.
    Object.assign(this.state.view, fresh);
    this.selection.select([], undefined);
    this.search.clear();
    this.fitNext = true;
  }

  private saveState(): void {
    clearTimeout(this.saveTimer);
    this.host.saveState(this.state);
  }
}

function nextFrame(): Promise<void> {
  return new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
}
