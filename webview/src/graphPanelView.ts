import type { PanelCommand, PanelModel, PanelToWebview, WebviewToPanel } from '../../server/src/protocol';
import { AffectedView } from './affectedView';
import { CyclesBanner } from './cyclesBanner';
import { h } from './dom';
import { DrawingFit } from './drawingFit';
import { drawingReport } from './drawingReport';
import { EdgeOutputs } from './edgeOutputs';
import { EdgeReads } from './edgeReads';
import { exportShown } from './exportImage';
import { firstView, fitFloor } from './firstView';
import { FocusBar } from './focusBar';
import { GraphCanvas } from './graphCanvas';
import { GraphIndex } from './graphIndex';
import { GroupBar } from './groupBar';
import { LayoutCache } from './layoutCache';
import type { LayoutClient } from './layoutClient';
import type { AheadLayout, Layout } from './layoutGraph';
import { Legend } from './legend';
import { type PanelState, restoreState, type ViewEditor } from './panelState';
import { plural } from './plural';
import { TITLE_SIZE } from './render';
import { Selection } from './selection';
import { StatusLine } from './statusLine';
import { SearchBox, toolbar } from './toolbar';
import { type ModuleAddress, NodeTooltips, type ProblemTexts } from './tooltip';
import { buildView, DEFAULT_VIEW, matcher, type ViewOptions } from './viewModel';
import { ViewNarrowing } from './viewNarrowing';
import { type Transform, Viewport } from './viewport';

export interface PanelHost {
  post(message: WebviewToPanel): void;
  /** The texts of modules' unresolved and ambiguous references, asked of the host (`HostAnswers`). */
  problems: ProblemTexts;
  /** A module's state address, asked of the host. */
  address: ModuleAddress;
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
  private graph: PanelModel | undefined;
  private index: GraphIndex | undefined;
  private readonly layoutCache: LayoutCache;
  private readonly canvas = new GraphCanvas();
  private readonly viewport: Viewport;
  private readonly drawingFit: DrawingFit;
  private readonly tooltips: NodeTooltips;
  private readonly search: SearchBox;
  private readonly groups: GroupBar;
  private readonly focus: FocusBar;
  private readonly selection: Selection;
  private readonly narrowing: ViewNarrowing;
  private readonly banner: CyclesBanner;
  private readonly legend: Legend;
  private readonly status: StatusLine;
  private readonly edgeReads: EdgeReads;
  private readonly edgeOutputs: EdgeOutputs;
  private readonly affected: AffectedView;
  /** Increases with each update; a layout that finishes after a newer update started is dropped. */
  private generation = 0;
  private fitNext: boolean;
  private saveTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    container: HTMLElement,
    layouts: LayoutClient,
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
    this.focus = new FocusBar(
      editor,
      () => this.narrowing.focusSelection(),
      () => this.narrowing.showPaths(),
    );
    this.legend = new Legend(this.state.legend, (shown) => {
      this.state.legend = shown;
      this.saveState();
    });
    // A cycle's path may pass only some of the modules that close on each other: select them all.
    this.banner = new CyclesBanner((cycle) =>
      this.selection.selectCycle(this.graph?.cycleModules?.find((members) => members.includes(cycle[0]!)) ?? cycle),
    );
    const canvas = this.canvas;
    this.viewport = new Viewport(
      canvas.element,
      canvas.root,
      (transform) => this.transformed(transform),
      () => this.drawingFit.resized(),
    );
    this.drawingFit = new DrawingFit(canvas, this.viewport, () => this.redraw(true));
    this.selection = new Selection(this.state, canvas, this.viewport, {
      highlight: () => this.highlight(),
      open: (id) => this.host.post({ type: 'openModule', id }),
      toggleGroup: (name) => this.groups.toggle(name),
      foldParent: (node) => this.groups.foldParent(node),
      focusSelection: () => this.narrowing.focusSelection(),
      clearFocus: () => this.focus.clear(),
      fit: () => this.drawingFit.fit(),
      narrowed: () => this.narrowing.narrowed(),
      showPaths: () => this.narrowing.showPaths(),
      showEdge: (id, event) => this.showEdge(id, event),
      hideSelection: () => this.narrowing.hideSelection(),
      showAll: () => this.narrowing.showAll(),
    });
    this.narrowing = new ViewNarrowing(
      this.state,
      this.selection,
      this.search,
      () => this.index,
      (refit) => this.redraw(refit),
    );
    this.tooltips = new NodeTooltips(
      canvas.element,
      (id) => {
        const node = canvas.shown?.view.nodes.find((candidate) => candidate.id === id);
        return node && this.index ? { node, index: this.index } : undefined;
      },
      (modules, limit) => this.host.problems(modules, limit),
      (id) => this.host.address(id),
      (id) => this.affected.why(id),
      (id) => this.affected.lastRun(id),
    );
    this.status = new StatusLine(canvas.element);
    this.affected = new AffectedView(
      (on) => this.host.post({ type: 'affected', on }),
      () => this.applyHighlights(),
      (id) => this.index?.byId.get(id)?.runState,
    );
    this.edgeReads = new EdgeReads(canvas.element, ({ from, file, line, character }) =>
      this.host.post({ type: 'openRead', from, file, line, character }),
    );
    this.edgeOutputs = new EdgeOutputs(canvas, (message) => this.host.post(message));
    const bar = toolbar(
      {
        search: this.search,
        groupBy: this.groups.chooser,
        focusTarget: this.focus.target,
        pathsTarget: this.focus.pathsTarget,
        focusBar: this.focus.element,
        hiddenChip: this.focus.hiddenChip,
        affectedToggle: this.affected.toggle,
        affectedChip: this.affected.chip,
        legendToggle: this.legend.toggle,
      },
      {
        zoomBy: (factor) => this.viewport.zoomBy(factor),
        fit: () => this.drawingFit.fit(),
        export: (format) => void this.export(format),
      },
    );
    // The progress bar lies over the top of the drawing: showing it must not resize the canvas.
    const main = h('div', { class: 'main' }, canvas.element, this.status.progress);
    container.append(bar, this.banner.element, this.groups.element, main, this.legend.element, this.status.element);
    if (this.state.transform) this.viewport.set(this.state.transform);
  }

  // ---- messages from the host ----

  /**
   * `layouts`: from the host, the layout of the view the last panel on this folder opened with, and
   * those it made ahead of this page.
   */
  showGraph(
    graph: PanelModel,
    folderUri: string,
    layouts: { opening?: { key: string; layout: Layout }; ahead?: readonly AheadLayout[] } = {},
    arrived = performance.now(),
  ): void {
    const first = !this.graph;
    if (layouts.opening) this.layoutCache.offer(layouts.opening.key, layouts.opening.layout);
    if (layouts.ahead) this.layoutCache.offerAhead(layouts.ahead);
    if (this.state.folderUri !== folderUri) {
      if (this.state.folderUri !== undefined) this.resetView();
      this.state.folderUri = folderUri;
    }
    this.graph = graph;
    this.index = new GraphIndex(graph, this.index);
    if (first && this.host.savedState === undefined)
      Object.assign(this.state.view, firstView(this.index, this.drawingFit.drawingArea()));
    this.groups.graphChanged(this.index);
    this.banner.show(graph.cycles);
    void this.update(arrived);
  }

  /** The size the drawing fits into (the host keeps it, to lay out the next panel's first view ahead for it). */
  drawingArea(): { width: number; height: number } {
    return this.drawingFit.drawingArea();
  }

  /** The outputs read along the graph's edges, come after it (`EdgeOutputsRequest`): in the drawn edges' tooltips and reads. */
  showOutputs(version: number, outputs: readonly string[][]): void {
    this.edgeOutputs.take(this.graph, version, outputs);
  }

  /** What the changes since a base ref affect, from the host; null: off. */
  showAffected(message: Extract<PanelToWebview, { type: 'affected' }>): void {
    if (message.error) this.status.say(`Affected modules: ${message.error}`);
    this.affected.show(message.affected);
  }

  focusModule(id: string): void {
    this.narrowing.focusModule(id);
  }

  runCommand(command: PanelCommand): void {
    switch (command) {
      case 'fit':
        this.drawingFit.fit();
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

  /** Resolves once drawn. */
  private redraw(refit: boolean): Promise<void> {
    if (refit) this.fitNext = true;
    return this.update();
  }

  /** `arrived`: when the graph this update draws came (its unpacking and index are part of the drawing's time). */
  private async update(arrived?: number): Promise<void> {
    const index = this.index;
    const graph = this.graph;
    if (!index || !graph) return;
    const generation = ++this.generation;
    const building = performance.now();
    const started = arrived ?? building;
    const outputsMark = this.edgeOutputs.mark();
    const view = buildView(index, this.state.view);
    const viewBuilt = performance.now();
    const lookup = this.layoutCache.lookup(
      view,
      this.canvas.nodeWidth(view),
      this.drawingFit.drawingArea(),
      this.canvas.shown?.layout,
    );
    let kept = lookup.kept;
    if (!kept) {
      this.status.busy(`Laying out ${plural(view.nodes.length, 'node')}…`);
      try {
        kept = await lookup.compute();
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
    const laidOut = performance.now();
    this.canvas.draw(view, kept.layout, index);
    this.edgeOutputs.drawn(graph, outputsMark);
    this.afterDraw();
    const drawn = performance.now();
    await nextFrame();
    if (generation !== this.generation) return;
    const shown = performance.now();
    this.status.idle();
    const focus = this.state.view.focus;
    this.host.post(
      drawingReport({
        version: graph.version,
        view,
        layout: kept,
        marks: { started, building, viewBuilt, laidOut, drawn, shown },
        outputEdges: this.canvas.outputEdges(),
        bounds: this.canvas.shown!.drawing.bounds,
        panel: this.drawingFit.drawingArea(),
        titlePx: TITLE_SIZE * this.viewport.transform.k,
        focus: focus && this.index?.byId.has(focus.id) ? focus.id : null,
      }),
    );
  }

  private afterDraw(): void {
    const view = this.canvas.shown!.view;
    this.viewport.readableZoom = fitFloor(view.nodes.length);
    this.selection.afterDraw();
    this.canvas.noteIfEmpty(this.graph, this.state.view);
    if (this.fitNext) {
      this.fitNext = false;
      this.drawingFit.fit();
    } else {
      this.canvas.positionHeadings(this.viewport.transform);
    }
    this.canvas.drawHeadings(this.viewport.transform);
    this.groups.render(view);
    this.focus.render(this.index);
    this.applyHighlights();
    this.status.show(this.index!, view);
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
    this.affected.apply(this.canvas.shown);
    this.search.showCount(matches, view, this.graph?.modules.length ?? 0);
    this.focus.enableTargets(selected.filter((id) => this.index?.byId.has(id)).length);
  }

  private highlight(): void {
    this.applyHighlights();
    this.saveState();
  }

  // ---- an edge's reads ----

  /** The reads an edge stands for, listed where it was clicked. */
  private showEdge(id: string, event: MouseEvent): void {
    const view = this.canvas.shown?.view;
    if (view && this.graph) this.edgeReads.showDrawn(id, view, this.graph, event);
  }

  // ---- pan and zoom, export ----

  private transformed(transform: Transform): void {
    this.drawingFit.transformed();
    this.state.transform = transform;
    this.canvas.positionHeadings(transform);
    this.tooltips.hide();
    clearTimeout(this.saveTimer);
    this.saveTimer = setTimeout(() => this.saveState(), 200);
  }

  private export(format: 'svg' | 'png'): Promise<void> {
    return exportShown(format, this.canvas, this.status, (message) => this.host.post(message));
  }

  // ---- state ----

  /** Another folder's graph: nothing of the last view carries over. */
  private resetView(): void {
    const fresh: ViewOptions = { ...DEFAULT_VIEW, collapsed: [], hidden: [] };
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
