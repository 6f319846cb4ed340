import type { GraphModel, PanelCommand, WebviewToPanel } from '../../server/src/protocol';
import { CyclesBanner } from './cyclesBanner';
import { codicon, h, iconButton, toggleButton } from './dom';
import { exportDrawing } from './exportImage';
import { LayoutCache } from './layoutCache';
import type { LayoutClient } from './layoutClient';
import type { Layout } from './layoutGraph';
import { NODE_HEIGHT, NODE_WIDTH } from './layoutOptions';
import { Legend } from './legend';
import { type PanelState, restoreState } from './panelState';
import { plural } from './plural';
import { type Drawing, draw, drawMarkers, svgElement, TextFitter } from './render';
import { StatusLine } from './statusLine';
import { NodeTooltips } from './tooltip';
import {
  buildView,
  GraphIndex,
  groupChoices,
  matcher,
  RUN_DISPLAY_NAMES,
  type ViewGraph,
  type ViewNode,
} from './viewModel';
import { type Box, type Transform, Viewport } from './viewport';

/** Past this many modules a new panel starts with its groups collapsed. */
export const GROUP_THRESHOLD = 400;
/** How many group colours the stylesheet defines. */
const GROUP_COLOURS = 6;
/** Past this many edges they are drawn fainter. */
const MANY_EDGES = 1500;

export interface PanelHost {
  post(message: WebviewToPanel): void;
  saveState(state: PanelState): void;
  savedState: PanelState | undefined;
}

/** The panel's whole user interface: toolbar, banner, drawing, legend, status line. */
export class GraphPanelView {
  private state: PanelState;
  private graph: GraphModel | undefined;
  private index: GraphIndex | undefined;
  private view: ViewGraph | undefined;
  private layout: Layout | undefined;
  private drawing: Drawing | undefined;
  private readonly layoutCache: LayoutCache;
  private readonly fitter: TextFitter;
  private readonly viewport: Viewport;
  private readonly tooltips: NodeTooltips;
  /** Increases with each update; a layout that finishes after a newer update started is dropped. */
  private generation = 0;
  private fitNext: boolean;
  private current: string | undefined;
  private saveTimer: ReturnType<typeof setTimeout> | undefined;
  /** True while the view is as the last fit left it. */
  private autoFit = false;
  private fitting = false;

  private readonly elements: {
    search: HTMLInputElement;
    searchCount: HTMLElement;
    filter: HTMLButtonElement;
    groupBy: HTMLSelectElement;
    groupBar: HTMLElement;
    focusBar: HTMLElement;
    focusTarget: HTMLButtonElement;
    banner: CyclesBanner;
    canvas: HTMLElement;
    headings: HTMLElement;
    svg: SVGSVGElement;
    defs: SVGDefsElement;
    root: SVGGElement;
    empty: HTMLElement;
    legend: Legend;
    status: StatusLine;
  };

  constructor(
    container: HTMLElement,
    private readonly layouts: LayoutClient,
    private readonly host: PanelHost,
  ) {
    this.state = restoreState(host.savedState);
    this.fitNext = this.state.transform === null;
    this.fitter = new TextFitter(getComputedStyle(document.body).fontFamily || 'sans-serif');
    this.layoutCache = new LayoutCache(layouts);
    this.elements = this.build(container);
    this.tooltips = new NodeTooltips(this.elements.canvas, (id) => {
      const node = this.view?.nodes.find((candidate) => candidate.id === id);
      return node && this.index ? { node, index: this.index } : undefined;
    });
    this.viewport = new Viewport(
      this.elements.canvas,
      this.elements.root,
      (transform) => this.transformed(transform),
      // A view the user has not moved since it was fitted stays fitted when the panel is resized.
      () => {
        if (this.autoFit) this.fit();
      },
    );
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
    const choices = groupChoices(graph);
    if (this.state.view.groupBy && !choices.includes(this.state.view.groupBy)) {
      this.state.view.groupBy = null;
      this.state.view.collapsed = [];
    }
    if (first && this.host.savedState === undefined && graph.modules.length > GROUP_THRESHOLD && choices.length) {
      // A big graph starts collapsed by its first segment (the service) and lays out only that.
      const groupBy = choices[0]!;
      this.state.view.groupBy = groupBy;
      this.state.view.collapsed = buildView(this.index, { ...this.state.view, groupBy, collapsed: [] }).groups.map(
        (group) => group.name,
      );
    }
    this.fillGroupChoices(choices);
    this.elements.banner.show(graph.cycles);
    void this.update();
  }

  focusModule(id: string): void {
    if (!this.index?.byId.has(id)) return;
    this.state.view.focus = { id, upstream: true, downstream: true };
    this.state.view.filter = false;
    this.state.selected = [id];
    this.current = id;
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

  // ---- building the page ----

  private build(container: HTMLElement): GraphPanelView['elements'] {
    const search = h('input', {
      type: 'search',
      class: 'search-input',
      placeholder: 'Search modules',
      'aria-label': 'Search modules',
      spellcheck: 'false',
    });
    search.value = this.state.view.search;
    search.addEventListener('input', () => this.searchChanged());
    search.addEventListener('keydown', (event) => {
      if (event.key === 'Enter') {
        event.preventDefault();
        this.nextMatch(event.shiftKey ? -1 : 1);
      } else if (event.key === 'Escape' && search.value) {
        event.preventDefault();
        search.value = '';
        this.searchChanged();
      }
    });
    const searchCount = h('span', { class: 'search-count', 'aria-live': 'polite' });
    const filter = toggleButton('filter', 'Show only matching modules', (pressed) => {
      this.state.view.filter = pressed;
      this.fitNext = true;
      void this.update();
    });
    filter.setAttribute('aria-pressed', String(this.state.view.filter));

    const groupBy = h('select', {
      class: 'group-by',
      'aria-label': 'Group by',
      title: 'Group modules by a path segment',
    });
    groupBy.addEventListener('change', () => {
      this.state.view.groupBy = groupBy.value || null;
      this.state.view.collapsed = [];
      this.fitNext = true;
      void this.update();
    });
    const groupBar = h('div', { class: 'group-bar', role: 'toolbar', 'aria-label': 'Groups', hidden: true });

    const focusTarget = iconButton('target', 'Focus on the selected module (F)', () => this.focusSelection());
    const focusBar = h('div', { class: 'focus-bar', role: 'group', 'aria-label': 'Focus', hidden: true });

    const legend = new Legend(this.state.legend, (shown) => {
      this.state.legend = shown;
      this.saveState();
    });

    const toolbar = h(
      'header',
      { class: 'toolbar', role: 'toolbar', 'aria-label': 'Graph' },
      h('div', { class: 'search' }, codicon('search'), search, searchCount, filter),
      h('label', { class: 'group-label' }, codicon('list-tree'), groupBy),
      focusTarget,
      focusBar,
      h('div', { class: 'spacer' }),
      iconButton('zoom-out', 'Zoom out (-)', () => this.viewport.zoomBy(1 / 1.25)),
      iconButton('zoom-in', 'Zoom in (+)', () => this.viewport.zoomBy(1.25)),
      iconButton('screen-full', 'Fit to view (0)', () => this.fit()),
      h('span', { class: 'separator' }),
      iconButton('export', 'Export as SVG…', () => void this.export('svg')),
      iconButton('file-media', 'Export as PNG…', () => void this.export('png')),
      legend.toggle,
    );
    const banner = new CyclesBanner((cycle) => this.selectCycle(cycle));

    const svg = svgElement('svg', { class: 'graph', 'aria-hidden': 'false' });
    const defs = svgElement('defs', {}, svg);
    drawMarkers(defs);
    const root = svgElement('g', { class: 'viewport' }, svg);
    const headings = h('div', { class: 'column-headings', 'aria-hidden': 'true' });
    const empty = h('div', { class: 'empty', hidden: true });
    const canvas = h(
      'div',
      { class: 'canvas', tabindex: '0', 'aria-label': 'Graph: arrow keys pan, + and - zoom, 0 fits' },
      svg,
      headings,
      empty,
    );
    canvas.addEventListener('keydown', (event) => this.canvasKey(event));
    canvas.addEventListener('click', (event) => this.canvasClick(event));
    canvas.addEventListener('dblclick', (event) => {
      if (!(event.target as Element).closest('.node')) this.fit();
    });
    const status = new StatusLine(canvas);

    // The progress bar lies over the top of the drawing: showing it must not resize the canvas.
    const main = h('div', { class: 'main' }, canvas, status.progress);
    container.append(toolbar, banner.element, groupBar, main, legend.element, status.element);
    document.addEventListener('keydown', (event) => {
      if ((event.key === 'f' && (event.ctrlKey || event.metaKey)) || (event.key === '/' && !isTyping(event))) {
        event.preventDefault();
        search.focus();
        search.select();
      }
    });
    return {
      search,
      searchCount,
      filter,
      groupBy,
      groupBar,
      focusBar,
      focusTarget,
      banner,
      canvas,
      headings,
      svg,
      defs,
      root,
      empty,
      legend,
      status,
    };
  }

  private fillGroupChoices(choices: string[]): void {
    const select = this.elements.groupBy;
    select.replaceChildren(
      h('option', { value: '' }, 'No groups'),
      ...choices.map((choice) => h('option', { value: choice }, `Group by ${choice}`)),
    );
    select.value = this.state.view.groupBy ?? '';
    select.disabled = choices.length === 0;
  }

  // ---- the update cycle: view → layout (worker) → drawing ----

  private async update(): Promise<void> {
    const index = this.index;
    if (!index) return;
    const generation = ++this.generation;
    const started = performance.now();
    const view = buildView(index, this.state.view);
    const lookup = this.layoutCache.lookup(view);
    let layout = lookup.layout;
    if (!layout) {
      this.elements.status.busy(`Laying out ${plural(view.nodes.length, 'node')}…`);
      try {
        layout = await lookup.compute();
      } catch (error) {
        if (generation === this.generation) {
          this.elements.status.idle();
          this.host.post({ type: 'problem', message: `layout failed: ${String(error)}` });
          this.elements.status.say('The layout failed; see the Terrace output.');
        }
        return;
      }
    }
    if (generation !== this.generation) return;
    this.view = view;
    this.layout = layout;
    const groupNames = view.groups.map((group) => group.name);
    this.drawing = draw(
      this.elements.root,
      view,
      layout,
      this.fitter,
      (group) => groupNames.indexOf(group) % GROUP_COLOURS,
    );
    // Thousands of edges are a texture, not lines to follow: fainter, until a selection picks some out.
    this.elements.svg.classList.toggle('many-edges', view.edges.length > MANY_EDGES);
    this.afterDraw();
    await nextFrame();
    if (generation !== this.generation) return;
    this.elements.status.idle();
    const modules = view.nodes.filter((node) => node.kind === 'module').length;
    this.host.post({
      type: 'rendered',
      version: this.graph?.version ?? 0,
      nodes: modules,
      groups: view.nodes.length - modules,
      edges: view.edges.length,
      levels: view.levels.length,
      ms: Math.round(performance.now() - started),
      layoutMs: Math.round(layout.ms),
      worker: this.layouts.inWorker,
      focus: this.state.view.focus && this.index?.byId.has(this.state.view.focus.id) ? this.state.view.focus.id : null,
    });
  }

  private afterDraw(): void {
    const view = this.view!;
    const drawing = this.drawing!;
    // Selection survives a redraw as far as its modules are still drawn (or inside a drawn group).
    this.state.selected = [
      ...new Set(this.state.selected.map((id) => this.nodeFor(id)).filter((id) => id !== undefined)),
    ];
    if (this.current) this.current = this.nodeFor(this.current);
    this.current ??= this.state.selected[0] ?? view.nodes[0]?.id;
    for (const node of view.nodes) {
      const element = drawing.nodes.get(node.id)!;
      element.setAttribute('tabindex', node.id === this.current ? '0' : '-1');
      element.setAttribute('aria-label', this.describe(node));
    }
    this.elements.empty.hidden = view.nodes.length > 0;
    this.elements.empty.textContent = this.emptyText();
    if (this.fitNext) {
      this.fitNext = false;
      this.fit();
    } else {
      this.positionHeadings(this.viewport.transform);
    }
    this.renderHeadings();
    this.renderGroupBar();
    this.renderFocusBar();
    this.applyHighlights();
    this.elements.status.show(this.graph!, view);
    this.elements.legend.showRunStates(!!this.graph?.modules.some((module) => module.runState));
    this.saveState();
  }

  /** Selection, search matches and the edges next to the selection: classes only, no new layout. */
  private applyHighlights(): void {
    const drawing = this.drawing;
    const view = this.view;
    if (!drawing || !view) return;
    const selected = new Set(this.state.selected);
    const matches = matcher(this.state.view.search);
    const matched = new Set<string>();
    for (const node of view.nodes) {
      const element = drawing.nodes.get(node.id);
      if (!element) continue;
      const isMatch = !!matches && (node.members.some(matches) || (node.kind === 'group' && matches(node.label)));
      if (isMatch) matched.add(node.id);
      element.classList.toggle('selected', selected.has(node.id));
      element.setAttribute('aria-pressed', String(selected.has(node.id)));
      element.classList.toggle('match', isMatch);
      element.classList.toggle('dimmed', !!matches && !isMatch);
    }
    for (const edge of drawing.edges) {
      const active = selected.has(edge.from) || selected.has(edge.to);
      edge.element.classList.toggle('active', active);
      edge.element.classList.toggle('dimmed', !!matches && !(matched.has(edge.from) && matched.has(edge.to)));
      if (!edge.element.classList.contains('cycle')) {
        edge.element.setAttribute('marker-end', `url(#arrow-${active ? 'active' : 'plain'})`);
      }
    }
    // Selected edges above the others.
    const layer = this.elements.root.querySelector('.edges');
    if (layer)
      for (const edge of drawing.edges) if (edge.element.classList.contains('active')) layer.append(edge.element);
    const count = this.elements.searchCount;
    if (matches) {
      const modules = view.nodes.reduce((sum, node) => sum + node.members.filter(matches).length, 0);
      count.textContent = modules ? `${modules} of ${this.graph?.modules.length ?? 0}` : 'No results';
      count.classList.toggle('no-results', modules === 0);
    } else {
      count.textContent = '';
    }
    this.elements.focusTarget.disabled =
      this.state.selected.length !== 1 || !this.graph?.modules.some((module) => module.id === this.state.selected[0]);
  }

  // ---- headings, bars, banner, status ----

  private renderHeadings(): void {
    const view = this.view;
    const layout = this.layout;
    if (!view || !layout) return;
    this.elements.headings.replaceChildren(
      ...view.levels.map((level, column) =>
        h(
          'div',
          {
            class: 'column-heading',
            'data-level': String(level),
            'data-column': String(column),
            title: `Level ${level}`,
          },
          `Level ${level}`,
        ),
      ),
    );
    this.positionHeadings(this.viewport.transform);
  }

  private positionHeadings(transform: Transform): void {
    const layout = this.layout;
    if (!layout) return;
    const headings = this.elements.headings.children;
    for (let i = 0; i < headings.length; i++) {
      const heading = headings[i] as HTMLElement;
      const x = (layout.columns[Number(heading.dataset.column)] ?? 0) * transform.k + transform.x;
      const width = Math.max(24, NODE_WIDTH * transform.k);
      heading.style.transform = `translateX(${Math.round(x)}px)`;
      heading.style.width = `${width}px`;
      // Zoomed far out, only the number fits.
      const text = width >= 56 ? `Level ${heading.dataset.level}` : (heading.dataset.level ?? '');
      if (heading.textContent !== text) heading.textContent = text;
    }
  }

  private renderGroupBar(): void {
    const bar = this.elements.groupBar;
    const view = this.view!;
    bar.hidden = view.groups.length === 0;
    if (bar.hidden) return;
    const chips = view.groups.map((group, index) => {
      const chip = h(
        'button',
        {
          type: 'button',
          class: 'group-chip',
          'aria-expanded': String(!group.collapsed),
          title: `${group.collapsed ? 'Expand' : 'Collapse'} ${group.name} (${plural(group.modules, 'module')})`,
        },
        codicon(group.collapsed ? 'chevron-right' : 'chevron-down'),
        h('span', { class: `swatch group-colour-${index % GROUP_COLOURS}` }),
        `${group.name}`,
        h('span', { class: 'chip-count' }, String(group.modules)),
      );
      chip.addEventListener('click', () => this.toggleGroup(group.name));
      return chip;
    });
    bar.replaceChildren(
      h('span', { class: 'bar-label' }, `By ${this.state.view.groupBy}:`),
      ...chips,
      iconButton('expand-all', 'Expand all groups', () => this.setAllGroups(false)),
      iconButton('collapse-all', 'Collapse all groups', () => this.setAllGroups(true)),
    );
  }

  private renderFocusBar(): void {
    const bar = this.elements.focusBar;
    const focus = this.state.view.focus;
    const module = focus && this.index?.byId.get(focus.id);
    bar.hidden = !module;
    this.elements.focusTarget.hidden = !!module;
    if (!focus || !module) return;
    const upstream = toggleButton('arrow-left', 'Show what it depends on (upstream)', (pressed) => {
      this.state.view.focus = { ...focus, upstream: pressed };
      this.fitNext = true;
      void this.update();
    });
    upstream.setAttribute('aria-pressed', String(focus.upstream));
    upstream.classList.add('focus-upstream');
    const downstream = toggleButton('arrow-right', 'Show what depends on it (downstream)', (pressed) => {
      this.state.view.focus = { ...focus, downstream: pressed };
      this.fitNext = true;
      void this.update();
    });
    downstream.setAttribute('aria-pressed', String(focus.downstream));
    downstream.classList.add('focus-downstream');
    bar.replaceChildren(
      codicon('target'),
      h('span', { class: 'focus-name', title: module.id }, module.id.split('/').at(-1) ?? module.id),
      upstream,
      downstream,
      iconButton('close', 'Show the whole graph (Escape)', () => this.clearFocus()),
    );
  }

  private emptyText(): string {
    if (!this.graph?.modules.length) return 'No Terraform root modules were found in this folder.';
    if (this.state.view.filter && this.state.view.search) return `No module matches “${this.state.view.search}”.`;
    return 'Nothing to show.';
  }

  // ---- user actions ----

  private canvasClick(event: MouseEvent): void {
    if (this.viewport.dragged) {
      this.viewport.dragged = false;
      return;
    }
    const element = (event.target as Element).closest('.node') as SVGGElement | null;
    if (!element) {
      if (this.state.selected.length) {
        this.state.selected = [];
        this.applyHighlights();
        this.saveState();
      }
      return;
    }
    const id = element.dataset.id!;
    if (event.ctrlKey || event.metaKey || event.shiftKey) {
      const selected = new Set(this.state.selected);
      if (selected.has(id)) selected.delete(id);
      else selected.add(id);
      this.state.selected = [...selected];
      this.setCurrent(id);
      this.applyHighlights();
      this.saveState();
      return;
    }
    this.activate(id);
  }

  /** Click or Enter on a node: a module is selected and opened; a collapsed group expands. */
  private activate(id: string): void {
    const node = this.view?.nodes.find((candidate) => candidate.id === id);
    if (!node) return;
    if (node.kind === 'group') {
      this.current = node.members[0];
      this.state.selected = [...node.members];
      this.toggleGroup(node.group!);
      return;
    }
    this.state.selected = [id];
    this.setCurrent(id);
    this.applyHighlights();
    this.saveState();
    this.host.post({ type: 'openModule', id });
  }

  private toggleGroup(name: string): void {
    const collapsed = new Set(this.state.view.collapsed);
    if (collapsed.has(name)) collapsed.delete(name);
    else collapsed.add(name);
    this.state.view.collapsed = [...collapsed];
    void this.update();
  }

  private setAllGroups(collapse: boolean): void {
    this.state.view.collapsed = collapse ? (this.view?.groups.map((group) => group.name) ?? []) : [];
    this.fitNext = true;
    void this.update();
  }

  private focusSelection(): void {
    const id = this.state.selected.length === 1 ? this.state.selected[0] : this.current;
    if (id && this.index?.byId.has(id)) this.focusModule(id);
  }

  private clearFocus(): void {
    if (!this.state.view.focus) return;
    this.state.view.focus = null;
    this.fitNext = true;
    void this.update();
  }

  private selectCycle(cycle: string[]): void {
    const ids = [...new Set(cycle)];
    const hidden = ids.some((id) => !this.nodeFor(id));
    if (hidden && (this.state.view.focus || this.state.view.filter)) {
      // A cycle partly outside the focus or the filter: show the whole graph to show the cycle.
      this.state.view.focus = null;
      this.state.view.filter = false;
      this.elements.filter.setAttribute('aria-pressed', 'false');
      this.state.selected = ids;
      this.current = ids[0];
      void this.update().then(() => this.revealSelection());
      return;
    }
    this.state.selected = ids;
    this.current = ids[0];
    this.afterSelectionChange();
    this.revealSelection();
  }

  private afterSelectionChange(): void {
    this.state.selected = [
      ...new Set(this.state.selected.map((id) => this.nodeFor(id)).filter((id) => id !== undefined)),
    ];
    this.applyHighlights();
    this.saveState();
  }

  private revealSelection(): void {
    const box = this.boxOf(this.state.selected);
    if (box) this.viewport.reveal(box);
  }

  private searchChanged(): void {
    this.state.view.search = this.elements.search.value;
    if (this.state.view.filter) {
      this.fitNext = true;
      void this.update();
    } else {
      this.applyHighlights();
      this.saveState();
    }
  }

  /** Enter in the search box: selects the next match and brings it into view. */
  private nextMatch(step: number): void {
    const matches = matcher(this.state.view.search);
    const view = this.view;
    const layout = this.layout;
    if (!matches || !view || !layout) return;
    const found = view.nodes
      .filter((node) => node.members.some(matches))
      .sort((a, b) => layout.nodes[a.id]!.x - layout.nodes[b.id]!.x || layout.nodes[a.id]!.y - layout.nodes[b.id]!.y);
    if (!found.length) return;
    const at = found.findIndex((node) => node.id === this.current);
    const next = found[(at + step + found.length) % found.length]!;
    this.state.selected = [next.id];
    this.setCurrent(next.id);
    this.applyHighlights();
    this.revealSelection();
    this.saveState();
  }

  private canvasKey(event: KeyboardEvent): void {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const node = (event.target as Element).closest?.('.node') as SVGGElement | null;
    const id = node?.dataset.id;
    const key = event.key;
    let handled = true;
    if (id && (key === 'Enter' || key === ' ')) this.activate(id);
    else if (id && key.startsWith('Arrow')) this.moveCurrent(id, key);
    else if (key === 'f' || key === 'F') this.focusSelection();
    else if (key === 'Escape') {
      if (this.state.view.focus) this.clearFocus();
      else {
        this.state.selected = [];
        this.applyHighlights();
        this.saveState();
      }
    } else if (key === '+' || key === '=') this.viewport.zoomBy(1.25);
    else if (key === '-' || key === '_') this.viewport.zoomBy(1 / 1.25);
    else if (key === '0') this.fit();
    else if (!id && key === 'ArrowLeft') this.viewport.panBy(60, 0);
    else if (!id && key === 'ArrowRight') this.viewport.panBy(-60, 0);
    else if (!id && key === 'ArrowUp') this.viewport.panBy(0, 60);
    else if (!id && key === 'ArrowDown') this.viewport.panBy(0, -60);
    else if (!id && key === 'Tab' && !event.shiftKey && this.current && event.target === this.elements.canvas) {
      this.drawing?.nodes.get(this.current)?.focus();
    } else handled = false;
    if (handled) event.preventDefault();
  }

  /** Arrow keys on a node: up/down within its column, left/right to the nearest node of the next column. */
  private moveCurrent(id: string, key: string): void {
    const layout = this.layout;
    const view = this.view;
    if (!layout || !view) return;
    const at = layout.nodes[id]!;
    const columns = layout.columns;
    const column = columns.indexOf(at.x);
    let candidates: ViewNode[];
    if (key === 'ArrowUp' || key === 'ArrowDown') {
      const down = key === 'ArrowDown';
      candidates = view.nodes.filter((node) => {
        const p = layout.nodes[node.id]!;
        return p.x === at.x && (down ? p.y > at.y : p.y < at.y);
      });
    } else {
      const target = columns[column + (key === 'ArrowRight' ? 1 : -1)];
      candidates = target === undefined ? [] : view.nodes.filter((node) => layout.nodes[node.id]!.x === target);
    }
    const nearest = candidates.sort(
      (a, b) => Math.abs(layout.nodes[a.id]!.y - at.y) - Math.abs(layout.nodes[b.id]!.y - at.y),
    )[0];
    if (!nearest) return;
    this.setCurrent(nearest.id);
    const box = this.boxOf([nearest.id]);
    if (box) this.viewport.reveal(box);
    this.drawing?.nodes.get(nearest.id)?.focus();
  }

  private setCurrent(id: string): void {
    if (this.current && this.current !== id) this.drawing?.nodes.get(this.current)?.setAttribute('tabindex', '-1');
    this.current = id;
    this.drawing?.nodes.get(id)?.setAttribute('tabindex', '0');
  }

  private fit(): void {
    const box = this.drawing?.bounds;
    if (!box) return;
    this.fitting = true;
    this.viewport.fit({ ...box, y: box.y - 24, height: box.height + 24 });
    this.fitting = false;
    this.autoFit = true;
  }

  private transformed(transform: Transform): void {
    if (!this.fitting) this.autoFit = false;
    this.state.transform = transform;
    this.positionHeadings(transform);
    this.tooltips.hide();
    clearTimeout(this.saveTimer);
    this.saveTimer = setTimeout(() => this.saveState(), 200);
  }

  private async export(format: 'svg' | 'png'): Promise<void> {
    const drawing = this.drawing;
    const layout = this.layout;
    const view = this.view;
    if (!drawing || !layout || !view) return;
    this.elements.status.busy(`Exporting ${format.toUpperCase()}…`);
    try {
      const data = await exportDrawing(format, this.elements.root, this.elements.defs, { view, layout, drawing });
      this.host.post({ type: 'export', format, data });
    } catch (error) {
      this.host.post({ type: 'problem', message: `export failed: ${String(error)}` });
    } finally {
      this.elements.status.idle();
      this.elements.status.say('');
    }
  }

  // ---- helpers ----

  /** The drawn node showing module `id` (itself or its collapsed group), if any. */
  private nodeFor(id: string): string | undefined {
    if (this.drawing?.nodes.has(id)) return id;
    return this.view?.nodes.find((node) => node.members.includes(id))?.id;
  }

  private boxOf(ids: string[]): Box | undefined {
    const layout = this.layout;
    if (!layout) return undefined;
    const points = ids.map((id) => layout.nodes[id]).filter((point) => point !== undefined);
    if (!points.length) return undefined;
    const x = Math.min(...points.map((p) => p.x));
    const y = Math.min(...points.map((p) => p.y));
    return {
      x,
      y,
      width: Math.max(...points.map((p) => p.x)) + NODE_WIDTH - x,
      height: Math.max(...points.map((p) => p.y)) + NODE_HEIGHT - y,
    };
  }

  private describe(node: ViewNode): string {
    if (node.kind === 'group')
      return `Group ${node.label}, level ${node.level}, ${node.detail}. Press Enter to expand.`;
    const index = this.index!;
    const parts = [
      node.members[0]!,
      `level ${node.level}`,
      `depends on ${plural(index.dependencies.get(node.id)?.size ?? 0, 'module')}`,
      `used by ${plural(index.dependents.get(node.id)?.size ?? 0, 'module')}`,
    ];
    if (node.inCycle) parts.push('in a dependency cycle');
    if (node.runState) parts.push(`run state ${RUN_DISPLAY_NAMES[node.runState]}`);
    if (node.problems.length) parts.push(plural(node.problems.length, 'unresolved reference'));
    return `${parts.join(', ')}. Press Enter to open.`;
  }

  private resetView(): void {
    this.state.view = { groupBy: null, collapsed: [], focus: null, search: '', filter: false };
    this.state.selected = [];
    this.current = undefined;
    this.elements.search.value = '';
    this.fitNext = true;
  }

  private saveState(): void {
    clearTimeout(this.saveTimer);
    this.host.saveState(this.state);
  }
}

function isTyping(event: KeyboardEvent): boolean {
  const target = event.target as HTMLElement | null;
  return !!target && (target.tagName === 'INPUT' || target.tagName === 'SELECT' || target.isContentEditable);
}

function nextFrame(): Promise<void> {
  return new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
}
