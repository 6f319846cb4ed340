import type { PanelModel, WebviewToPanel } from '../../server/src/protocol';
import type { GraphCanvas } from './graphCanvas';

/**
 * The outputs read along the graph's edges, which come after it (`EdgeOutputsRequest`): put on the
 * graph's edges, shown in the drawn edges' tooltips and reads, and the host told how many show them.
 */
export class EdgeOutputs {
  /** Increases when the edges' outputs come: a view built before draws them once drawn. */
  private came = 0;
  /** The graph whose view is drawn. */
  private drawnGraph: PanelModel | undefined;

  constructor(
    private readonly canvas: GraphCanvas,
    private readonly post: (message: WebviewToPanel) => void,
  ) {}

  /** The outputs of the edges of `graph` at `version`; those of another version are dropped. */
  take(graph: PanelModel | undefined, version: number, outputs: readonly string[][]): void {
    if (!graph || graph.version !== version || outputs.length !== graph.edges.length) return;
    graph.edges.forEach((edge, at) => {
      edge.outputs = outputs[at]!;
    });
    this.came++;
    // A drawing of an earlier graph is left as it is: the one on its way takes them once drawn.
    if (this.drawnGraph === graph) this.show(graph);
  }

  /** Taken before a view is built: `drawn` tells by it whether outputs came since. */
  mark(): number {
    return this.came;
  }

  /** A view of `graph` drawn, built when `mark` was taken: it shows the outputs that came since. */
  drawn(graph: PanelModel, mark: number): void {
    this.drawnGraph = graph;
    if (mark !== this.came) this.show(graph);
  }

  private show(graph: PanelModel): void {
    this.canvas.showEdgeOutputs(graph);
    this.post({ type: 'outputsShown', version: graph.version, edges: this.canvas.outputEdges() });
  }
}
