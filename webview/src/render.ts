import { BAND_MARGIN, BAND_TOP, bandRects } from './columnBands';
import { roundedPath, sameColumnPath } from './edgePaths';
import type { Layout, Point } from './layoutGraph';
import { NODE_HEIGHT, NODE_WIDTH } from './layoutOptions';
import type { RunDisplay } from './runDisplay';
import type { TextFitter, TextMeasure } from './textFitter';
import { NOT_IN_A_STACK, type ViewEdge, type ViewGraph, type ViewNode } from './viewModel';

/**
 * Draws a laid-out view as SVG: column bands (`columnBands.ts`), edges (reader → writer, the arrowhead at the
 * dependency; their paths' shapes in `edgePaths.ts`), nodes (their text fitted by `textFitter.ts`). Colours come
 * from the stylesheet (VS Code's theme variables), never from here.
 */
const SVG = 'http://www.w3.org/2000/svg';

/** How many group colours the stylesheet defines. */
export const GROUP_COLOURS = 6;

export interface Drawing {
  nodes: Map<string, SVGGElement>;
  /** In the order of the view's edges. */
  edges: { element: SVGPathElement; from: string; to: string }[];
  /** The drawing's extent, in drawing coordinates. */
  bounds: { x: number; y: number; width: number; height: number };
}

export function svgElement<K extends keyof SVGElementTagNameMap>(
  name: K,
  attributes: Record<string, string | number> = {},
  parent?: Element,
): SVGElementTagNameMap[K] {
  const element = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, String(value));
  parent?.append(element);
  return element;
}

/** The arrowheads: one marker per edge style, since a marker cannot take its line's colour. */
export function drawMarkers(defs: SVGDefsElement): void {
  for (const kind of ['plain', 'cycle', 'active']) {
    const marker = svgElement(
      'marker',
      {
        id: `arrow-${kind}`,
        viewBox: '0 0 10 10',
        refX: 9,
        refY: 5,
        markerWidth: 7,
        markerHeight: 7,
        markerUnits: 'userSpaceOnUse',
        orient: 'auto',
      },
      defs,
    );
    svgElement('path', { d: 'M0,0 L10,5 L0,10 z', class: `arrowhead ${kind}` }, marker);
  }
}

export function draw(
  root: SVGGElement,
  view: ViewGraph,
  layout: Layout,
  fitter: TextFitter,
  groupColour: (group: string) => number,
): Drawing {
  root.replaceChildren();
  const bands = svgElement('g', { class: 'bands' }, root);
  const edgeLayer = svgElement('g', { class: 'edges' }, root);
  const countLayer = svgElement('g', { class: 'edge-counts' }, root);
  // Wide, invisible twins of the edges: what a click on an edge hits.
  const hitLayer = svgElement('g', { class: 'edge-hits' }, root);
  const nodeLayer = svgElement('g', { class: 'nodes' }, root);

  const down = layout.direction === 'down';
  const { rects, across } = bandRects(layout, view.headings);
  for (const { classes, ...rect } of rects) svgElement('rect', { class: classes, ...rect, rx: 6 }, bands);

  const boxTops = drawGroupBoxes(bands, view, layout, fitter, groupColour);

  const position = (id: string): Point => layout.nodes[id] ?? { x: 0, y: 0 };
  const edges: Drawing['edges'] = [];
  for (const edge of view.edges) {
    const points = layout.edges[edge.id];
    const d = points?.length
      ? roundedPath(points)
      : sameColumnPath(position(edge.from), position(edge.to), edge.from === edge.to, layout);
    const path = svgElement(
      'path',
      {
        // Inferred and ambiguous edges are drawn dashed and dotted: their reader's address is known only in part.
        class: `edge${edge.inCycle ? ' cycle' : ''}${edge.match === 'exact' ? '' : ` ${edge.match}`}`,
        d,
        'marker-end': `url(#arrow-${edge.inCycle ? 'cycle' : 'plain'})`,
        'data-from': edge.from,
        'data-to': edge.to,
        'data-count': edge.count,
      },
      edgeLayer,
    );
    setEdgeTitle(path, edge);
    if (edge.count > 1) {
      // Between folded nodes: thicker with the number of reads it stands for, which it says at its reader's end.
      path.setAttribute('stroke-width', String(Math.min(6, 1 + Math.log2(edge.count))));
      const start = points?.[0] ?? position(edge.from);
      // Beside the edge's start: left of the reader going right, above it going down.
      const [x, y, anchor] = down ? [start.x + 4, start.y - 6, 'start'] : [start.x - 6, start.y - 4, 'end'];
      const count = svgElement(
        'text',
        { class: 'edge-count', x, y, 'text-anchor': anchor, 'data-from': edge.from },
        countLayer,
      );
      count.textContent = String(edge.count);
    }
    svgElement('path', { class: 'edge-hit', d, 'data-edge': edge.id }, hitLayer);
    edges.push({ element: path, from: edge.from, to: edge.to });
  }

  const nodes = new Map<string, SVGGElement>();
  for (const node of view.nodes)
    nodes.set(node.id, drawNode(nodeLayer, node, position(node.id), layout.nodeWidth, fitter, groupColour));

  const extra = 2 * BAND_MARGIN;
  const top = Math.min(BAND_TOP - 8, boxTops - 8);
  const bounds = down
    ? { x: top, y: -extra, width: across - BAND_TOP + 8 - top, height: layout.height + 2 * extra }
    : { x: -extra, y: top, width: layout.width + 2 * extra, height: across - BAND_TOP + 8 - top };
  return { nodes, edges, bounds };
}

/** A box around each expanded group's modules, its name at the top; returns the highest box's top. */
function drawGroupBoxes(
  layer: SVGGElement,
  view: ViewGraph,
  layout: Layout,
  fitter: TextFitter,
  groupColour: (group: string) => number,
): number {
  const expanded = new Set(
    view.nodes.flatMap((node) => (node.kind === 'module' && node.group !== null ? [node.group] : [])),
  );
  let top = 0;
  for (const [group, box] of Object.entries(layout.bands)) {
    // The root modules beside the Stacks have a band of their own, not a box.
    if (!expanded.has(group) || group === NOT_IN_A_STACK) continue;
    const g = svgElement('g', { class: 'group-box-frame', 'data-group': group }, layer);
    svgElement('rect', { class: `group-box group-colour-${groupColour(group)}`, ...box, rx: 8 }, g);
    const title = svgElement('text', { class: 'group-box-title', x: box.x + 10, y: box.y + 16 }, g);
    title.textContent = fitter.fit(group, '600 12px', box.width - 20);
    top = Math.min(top, box.y);
  }
  return top;
}

/** A node's title, in the drawing's pixels (the stylesheet's `.node-label` says the same). */
export const TITLE_SIZE = 13;

/** A Terragrunt unit's corner radius: round enough to tell it from a root module's box at a glance. */
const UNIT_RADIUS = 14;

/** The widest node a view gets: past it, a title is cut at its end. */
export const MAX_NODE_WIDTH = 360;
const TITLE_FONT = `600 ${TITLE_SIZE}px`;
const DETAIL_FONT = '11px';
/** Room a node keeps beside its text: the padding, and the marks drawn at the right end of a line. */
const TEXT_PADDING = 24;
const BADGE_ROOM = 18;
const CYCLE_MARK_ROOM = 14;

function titleRoom(node: ViewNode, width: number): number {
  return width - TEXT_PADDING - (node.problems.length || node.kind === 'group' ? BADGE_ROOM : 0);
}

function detailRoom(node: ViewNode, width: number): number {
  return width - TEXT_PADDING - (node.inCycle ? CYCLE_MARK_ROOM : 0);
}

/**
 * The width every node of a view gets: its longest title and the longest part of a subtitle that tells
 * a node from its namesakes fit whole (a wider node is better than a cut that hides what tells two nodes
 * apart); `NODE_WIDTH` at least, `MAX_NODE_WIDTH` at most.
 */
export function nodeWidth(view: ViewGraph, fitter: TextMeasure): number {
  let width = NODE_WIDTH;
  for (const node of view.nodes) {
    const title = fitter.measure(node.label, TITLE_FONT) + NODE_WIDTH - titleRoom(node, NODE_WIDTH);
    // The subtitle goes on after the distinct part: room for its ellipsis too.
    const distinct = node.distinct
      ? fitter.measure(`${node.distinct}…`, DETAIL_FONT) + NODE_WIDTH - detailRoom(node, NODE_WIDTH)
      : 0;
    width = Math.max(width, Math.ceil(title), Math.ceil(distinct));
  }
  return Math.min(width, MAX_NODE_WIDTH);
}

function drawNode(
  layer: SVGGElement,
  node: ViewNode,
  at: Point,
  width: number,
  fitter: TextFitter,
  groupColour: (group: string) => number,
): SVGGElement {
  const classes = ['node', node.kind];
  if (node.unit) classes.push('unit');
  if (node.component) classes.push('component');
  if (node.inCycle) classes.push('cycle');
  if (node.problems.length) classes.push('has-problems');
  if (node.problems.some((problem) => problem.kind === 'syntax')) classes.push('broken');
  const g = svgElement(
    'g',
    {
      class: classes.join(' '),
      transform: `translate(${at.x} ${at.y})`,
      'data-id': node.id,
      ...(node.levels ? { 'data-level': node.levels.first } : {}),
      tabindex: -1,
      role: 'button',
    },
    layer,
  );
  if (node.kind === 'group') {
    // A folded folder or group: narrower cards behind it, clear of the edges at its sides.
    for (const offset of [8, 4]) {
      svgElement(
        'rect',
        {
          class: 'node-box stack',
          x: 2 * offset,
          y: -offset,
          width: width - 4 * offset,
          height: NODE_HEIGHT,
          rx: 4,
        },
        g,
      );
    }
  }
  svgElement('rect', { class: 'node-box', width, height: NODE_HEIGHT, rx: node.unit ? UNIT_RADIUS : 4 }, g);
  if (node.group !== null) {
    svgElement(
      'rect',
      {
        class: `node-stripe group-colour-${groupColour(node.group)}`,
        x: 0,
        y: 0,
        width: 4,
        height: NODE_HEIGHT,
        rx: 2,
      },
      g,
    );
  }
  const label = svgElement('text', { class: 'node-label', x: 12, y: 19 }, g);
  label.textContent = fitter.fit(node.label, TITLE_FONT, titleRoom(node, width));
  const detail = svgElement('text', { class: 'node-detail', x: 12, y: 35 }, g);
  // What tells the node apart is drawn whole; a path after it (a name of its own) keeps its last folders.
  const keep = node.detail.startsWith(node.distinct) ? node.distinct : '';
  const rest = node.detail.slice(keep.length);
  detail.textContent =
    node.kind === 'module' && rest.includes('/')
      ? fitter.fitKeepingEnd(
          keep === '' ? '' : `${keep} · `,
          rest.replace(/^ · /, ''),
          DETAIL_FONT,
          detailRoom(node, width),
        )
      : fitter.fit(node.detail, DETAIL_FONT, detailRoom(node, width));
  if (node.kind === 'group') {
    const plus = svgElement('text', { class: 'node-expand', x: width - 10, y: 19, 'text-anchor': 'end' }, g);
    plus.textContent = '+';
  }
  if (node.inCycle) {
    const mark = svgElement('text', { class: 'node-cycle-mark', x: width - 10, y: 35, 'text-anchor': 'end' }, g);
    mark.textContent = '↻';
  }
  if (node.problems.length) {
    // Unresolved or ambiguous references: a warning badge with their count on the reader.
    const badge = svgElement('g', { class: 'badge problems', transform: `translate(${width - 4} 4)` }, g);
    svgElement('circle', { r: 9 }, badge);
    const count = svgElement('text', { 'text-anchor': 'middle', y: 4 }, badge);
    count.textContent = node.problems.length > 9 ? '9+' : String(node.problems.length);
  }
  if (node.runState) {
    // The run state: a badge on the top-left corner.
    g.dataset.runState = node.runState;
    drawRunBadge(g, node.runState);
  }
  return g;
}

const RUN_GLYPHS: Record<RunDisplay, string> = {
  running: '…',
  failed: '!',
  drifted: '~',
  apply: 'A',
  plan: 'P',
  idle: '✓',
};

export function drawRunBadge(parent: SVGElement, state: RunDisplay, x = 0, y = 0): SVGGElement {
  const badge = svgElement('g', { class: `badge run-state run-${state}`, transform: `translate(${x} ${y})` }, parent);
  svgElement('circle', { r: 8 }, badge);
  const glyph = svgElement('text', { 'text-anchor': 'middle', y: 3.5 }, badge);
  glyph.textContent = RUN_GLYPHS[state];
  return badge;
}

/** How many output names an edge's tooltip lists before it counts the rest. */
const TITLE_OUTPUTS = 8;

/** An edge's tooltip on its path, made, changed or taken away (`Drawing.edges` are in the view's order). */
export function setEdgeTitle(path: SVGPathElement, edge: ViewEdge): void {
  const title = edgeTitle(edge);
  const element = path.querySelector<SVGTitleElement>(':scope > title');
  if (!title) element?.remove();
  else (element ?? svgElement('title', {}, path)).textContent = title;
}

/** An edge's tooltip: how many reads it stands for, and the outputs that flow along it. */
export function edgeTitle(edge: ViewEdge): string | undefined {
  const reads = edge.count > 1 ? `${edge.count} reads` : '';
  if (edge.outputs.length === 0) return reads || undefined;
  const shown = edge.outputs.slice(0, TITLE_OUTPUTS).join(', ');
  const more = edge.outputs.length > TITLE_OUTPUTS ? ` and ${edge.outputs.length - TITLE_OUTPUTS} more` : '';
  return `${reads ? `${reads}; ` : ''}outputs read: ${shown}${more}`;
}
