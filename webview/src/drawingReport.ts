import type { WebviewToPanel } from '../../server/src/protocol';
import type { KeptLayout } from './layoutCache';
import type { ViewGraph } from './viewModel';

export type DrawingReport = Extract<WebviewToPanel, { type: 'rendered' }>;

/** When each step of a drawing ended, by the page's clock (`performance.now()`). */
export interface DrawingMarks {
  /** The graph came (or the view changed). */
  started: number;
  /** The graph was unpacked and indexed: the view's building began. */
  building: number;
  viewBuilt: number;
  laidOut: number;
  drawn: number;
  /** The frame that shows the drawing. */
  shown: number;
}

/** What the page reports once a drawing is on screen (`rendered`): what it shows, and where its time went. */
export function drawingReport(
  drawing: Pick<DrawingReport, 'version' | 'outputEdges' | 'panel' | 'titlePx' | 'focus'> & {
    view: ViewGraph;
    layout: KeptLayout;
    marks: DrawingMarks;
    /** The drawing's bounds, unrounded. */
    bounds: DrawingReport['drawing'];
  },
): DrawingReport {
  const { view, marks } = drawing;
  const modules = view.nodes.filter((node) => node.kind === 'module').length;
  const ms = (from: number, to: number) => Math.round(to - from);
  return {
    type: 'rendered',
    version: drawing.version,
    nodes: modules,
    groups: view.nodes.length - modules,
    edges: view.edges.length,
    outputEdges: drawing.outputEdges,
    levels: view.columns.length,
    drawing: { width: Math.round(drawing.bounds.width), height: Math.round(drawing.bounds.height) },
    panel: drawing.panel,
    ms: ms(marks.started, marks.shown),
    steps: {
      graphMs: ms(marks.started, marks.building),
      viewMs: ms(marks.building, marks.viewBuilt),
      layoutWaitMs: ms(marks.viewBuilt, marks.laidOut),
      drawMs: ms(marks.laidOut, marks.drawn),
      frameMs: ms(marks.drawn, marks.shown),
    },
    drawnAt: Date.now(),
    layoutMs: Math.round(drawing.layout.layout.ms),
    layoutIn: drawing.layout.madeIn,
    titlePx: drawing.titlePx,
    focus: drawing.focus,
    // The groups drawn as boxes, as the drawing names them.
    boxes: [...document.querySelectorAll('g.group-box-frame')].map((frame) => frame.getAttribute('data-group') ?? ''),
  };
}
