import type { PanelModel } from '../../server/src/protocol';
import { headingAnchors } from './columnBands';
import { h } from './dom';
import type { GraphIndex } from './graphIndex';
import type { Layout } from './layoutGraph';
import { plural } from './plural';
import { type Drawing, draw, drawMarkers, GROUP_COLOURS, nodeWidth, setEdgeTitle, svgElement } from './render';
import { RUN_DISPLAY_NAMES } from './runDisplay';
import { TextFitter } from './textFitter';
import { columnTitle } from './viewColumns';
import { fillEdgeOutputs, type ViewGraph, type ViewNode, type ViewOptions } from './viewModel';
import type { Transform } from './viewport';

/** Past this many edges they are drawn fainter. */
const MANY_EDGES = 1500;

/** A view as it is drawn: the view, its layout and the SVG elements made from them. */
export interface Drawn {
  readonly view: ViewGraph;
  readonly layout: Layout;
  readonly drawing: Drawing;
}

/**
 * The drawing area: the SVG of the laid-out view, the column headings above it, and the note shown
 * when there is nothing to draw. It keeps what it drew last for the other parts to read.
 */
export class GraphCanvas {
  readonly element: HTMLElement;
  readonly defs: SVGDefsElement;
  /** The group that pan and zoom transform. */
  readonly root: SVGGElement;
  /** What is drawn now; undefined until the first drawing. */
  shown: Drawn | undefined;
  private readonly svg: SVGSVGElement;
  private readonly headings = h('div', { class: 'column-headings', 'aria-hidden': 'true' });
  private readonly empty = h('div', { class: 'empty', hidden: true });
  private readonly fitter = new TextFitter();

  constructor() {
    this.svg = svgElement('svg', { class: 'graph', 'aria-hidden': 'false' });
    this.defs = svgElement('defs', {}, this.svg);
    drawMarkers(this.defs);
    this.root = svgElement('g', { class: 'viewport' }, this.svg);
    this.element = h(
      'div',
      { class: 'canvas', tabindex: '0', 'aria-label': 'Graph: arrow keys pan, + and - zoom, 0 fits' },
      this.svg,
      this.headings,
      this.empty,
    );
  }

  /**
   * The width every node of `view` gets: enough for the longest title and for every part of a subtitle
   * that tells a node from its namesakes, within `MAX_NODE_WIDTH`. Measured in the font the page has now.
   */
  nodeWidth(view: ViewGraph): number {
    this.fitter.useFamily(getComputedStyle(this.svg).fontFamily || 'sans-serif');
    return nodeWidth(view, this.fitter);
  }

  draw(view: ViewGraph, layout: Layout, index: GraphIndex): Drawn {
    const groupNames = view.groups.map((group) => group.name);
    this.fitter.useFamily(getComputedStyle(this.svg).fontFamily || 'sans-serif');
    const drawing = draw(this.root, view, layout, this.fitter, (group) => groupNames.indexOf(group) % GROUP_COLOURS);
    this.shown = { view, layout, drawing };
    // Thousands of edges are a texture, not lines to follow: fainter, until a selection picks some out.
    this.svg.classList.toggle('many-edges', view.edges.length > MANY_EDGES);
    for (const node of view.nodes) drawing.nodes.get(node.id)!.setAttribute('aria-label', describe(node, index));
    return this.shown;
  }

  /** The outputs read along the drawn edges, come after the view was built: in their tooltips. */
  showEdgeOutputs(graph: PanelModel): void {
    const shown = this.shown;
    if (!shown) return;
    fillEdgeOutputs(shown.view, graph);
    shown.view.edges.forEach((edge, at) => {
      setEdgeTitle(shown.drawing.edges[at]!.element, edge);
    });
  }

  /** How many drawn edges name outputs read along them. */
  outputEdges(): number {
    return this.shown?.view.edges.filter((edge) => edge.outputs.length > 0).length ?? 0;
  }

  /** The note in place of an empty drawing: why there is nothing to show. */
  noteIfEmpty(graph: PanelModel | undefined, options: ViewOptions): void {
    this.empty.hidden = (this.shown?.view.nodes.length ?? 0) > 0;
    this.empty.textContent = emptyText(graph, options);
  }

  /** Selection, search matches and the edges next to the selection: classes only, no new layout. */
  highlight(selected: ReadonlySet<string>, matches: ((id: string) => boolean) | null): void {
    const shown = this.shown;
    if (!shown) return;
    const { view, drawing } = shown;
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
    const layer = this.root.querySelector('.edges');
    if (layer)
      for (const edge of drawing.edges) if (edge.element.classList.contains('active')) layer.append(edge.element);
  }

  /**
   * One "Level N" (or "Levels N–M", where folded nodes span several) heading per column, over the drawing;
   * one "In a cycle" or "Waits for a cycle" over the columns of modules with no level.
   */
  drawHeadings(transform: Transform): void {
    const view = this.shown?.view;
    if (!view) return;
    this.headings.replaceChildren(
      ...view.headings.map((heading, index) =>
        h(
          'div',
          {
            class: `column-heading${heading.noLevel ? ` no-level ${heading.noLevel}` : ''}`,
            'data-short': heading.short,
            'data-heading': String(index),
            title: heading.title,
          },
          heading.title,
        ),
      ),
    );
    this.positionHeadings(transform);
  }

  /**
   * The headings follow the columns as the drawing pans and zooms: in a strip above the drawing, or
   * going down, on the top-left corner of each row's band.
   */
  positionHeadings(transform: Transform): void {
    const shown = this.shown;
    if (!shown) return;
    const layout = shown.layout;
    const down = layout.direction === 'down';
    this.headings.classList.toggle('down', down);
    const headings = this.headings.children;
    const anchors = headingAnchors(layout, shown.view.headings);
    for (let i = 0; i < headings.length; i++) {
      const heading = headings[i] as HTMLElement;
      const anchor = anchors[Number(heading.dataset.heading)] ?? { x: 0, y: 0, width: layout.nodeWidth };
      const x = anchor.x * transform.k + transform.x;
      const width = Math.max(24, anchor.width * transform.k);
      // Going down, just above the band: its text's height (`graph.css`) over its top.
      const y = down ? anchor.y * transform.k + transform.y - HEADING_HEIGHT : 0;
      heading.style.transform = `translate(${Math.round(x)}px, ${Math.round(y)}px)`;
      heading.style.width = `${width}px`;
      // Zoomed far out, only the number (or a cycle's mark) fits.
      const text = width >= 56 ? (heading.title ?? '') : (heading.dataset.short ?? '');
      if (heading.textContent !== text) heading.textContent = text;
    }
  }
}

/** A heading's line over a row's band, going down. */
const HEADING_HEIGHT = 18;

/** A node as a screen reader says it. */
function describe(node: ViewNode, index: GraphIndex): string {
  if (node.kind === 'group')
    return `Folded ${node.fold}, ${columnTitle(node).toLowerCase()}, ${node.detail}. Press Enter to unfold.`;
  const parts = [
    node.unit
      ? `Terragrunt unit ${node.members[0]!}`
      : node.component
        ? `Stacks component ${node.members[0]!}`
        : node.members[0]!,
    node.levels ? `level ${node.levels.first}` : 'no level',
    `depends on ${plural(index.dependencies.get(node.id)?.size ?? 0, 'module')}`,
    `used by ${plural(index.dependents.get(node.id)?.size ?? 0, 'module')}`,
  ];
  if (node.inCycle) parts.push('in a dependency cycle');
  if (node.waitsForCycle) parts.push('waits for a cycle');
  if (node.runState) parts.push(`run state ${RUN_DISPLAY_NAMES[node.runState]}`);
  const syntax = node.problems.filter((problem) => problem.kind === 'syntax').length;
  if (syntax)
    parts.push(
      syntax === node.problems.length && node.kind === 'module'
        ? 'does not parse'
        : plural(syntax, 'module that does not parse', 'modules that do not parse'),
    );
  if (node.problems.length > syntax) parts.push(plural(node.problems.length - syntax, 'unresolved reference'));
  return `${parts.join(', ')}. Press Enter to open.`;
}

function emptyText(graph: PanelModel | undefined, options: ViewOptions): string {
  if (!graph?.modules.length) return 'No Terraform root modules were found in this folder.';
  if (options.filter && options.search) return `No module matches “${options.search}”.`;
  return 'Nothing to show.';
}
