/**
 * A directed graph of module ids, edges pointing from a module to what it depends on
 * (reader → writer). Only structure: the algorithms over it live in their own files.
 *
 * Nodes are numbered in the order they were added and the algorithms (levels, cycles) run on
 * those numbers: the analysis makes a new graph after every edit, over thousands of modules,
 * from lists it keeps between edits (`fromNumbered`), so making one must cost next to nothing.
 * Edge lists are never changed in place (`addEdge` replaces a node's list), which lets a graph
 * share them with its maker; the reverse edges are worked out when first asked for.
 */
export class DependencyGraph {
  private ids: string[];
  private numbers: Map<string, number>;
  /** True while `ids` and `numbers` belong to whoever made the graph: copied before a change. */
  private shared: boolean;
  private readonly out: (readonly number[])[];
  private reverse: Reverse | undefined;
  /** `dependencies()` and `dependents()` as ids, made on first use. */
  private outIds: (readonly string[] | undefined)[] = [];
  private inIds: (readonly string[] | undefined)[] = [];

  constructor(nodes: Iterable<string> = []) {
    this.ids = [];
    this.numbers = new Map();
    this.shared = false;
    this.out = [];
    for (const node of nodes) this.addNode(node);
  }

  /**
   * The graph over `nodes` (distinct ids, `numbers` mapping each to its position) whose node `n`
   * depends on the nodes numbered `dependencies[n]` (distinct numbers). Nothing is copied.
   */
  static fromNumbered(
    nodes: readonly string[],
    numbers: ReadonlyMap<string, number>,
    dependencies: readonly (readonly number[])[],
  ): DependencyGraph {
    const graph = new DependencyGraph();
    graph.ids = nodes as string[];
    graph.numbers = numbers as Map<string, number>;
    graph.shared = true;
    for (const list of dependencies) graph.out.push(list);
    return graph;
  }

  addNode(node: string): void {
    if (this.numbers.has(node)) return;
    this.own();
    this.numbers.set(node, this.ids.length);
    this.ids.push(node);
    this.out.push([]);
    this.reverse = undefined;
  }

  /** Adds `from → to` (from depends on to); both nodes are added when missing. */
  addEdge(from: string, to: string): void {
    this.addNode(from);
    this.addNode(to);
    const f = this.numbers.get(from)!;
    const t = this.numbers.get(to)!;
    if (this.out[f]!.includes(t)) return;
    this.out[f] = [...this.out[f]!, t];
    this.reverse = undefined;
    this.outIds[f] = undefined;
    this.inIds = [];
  }

  /** The number of nodes; they are numbered 0 to size - 1. */
  get size(): number {
    return this.ids.length;
  }

  /** The id of node number `n`. */
  idOf(n: number): string {
    return this.ids[n]!;
  }

  /** The number of `node`, undefined when it is not in the graph. */
  numberOf(node: string): number | undefined {
    return this.numbers.get(node);
  }

  /** The numbers of what node `n` depends on. */
  dependencyNumbers(n: number): readonly number[] {
    return this.out[n]!;
  }

  /** The numbers of what depends on node `n`. */
  dependentNumbers(n: number): Int32Array {
    this.reverse ??= reverseEdges(this.out);
    return this.reverse.sources.subarray(this.reverse.start[n], this.reverse.start[n + 1]);
  }

  nodes(): string[] {
    return this.ids.slice();
  }

  has(node: string): boolean {
    return this.numbers.has(node);
  }

  /** What `node` depends on. */
  dependencies(node: string): readonly string[] {
    const n = this.numbers.get(node);
    if (n === undefined) return [];
    this.outIds[n] ??= this.out[n]!.map((m) => this.ids[m]!);
    return this.outIds[n];
  }

  /** What depends on `node`. */
  dependents(node: string): readonly string[] {
    const n = this.numbers.get(node);
    if (n === undefined) return [];
    this.inIds[n] ??= Array.from(this.dependentNumbers(n), (m) => this.ids[m]!);
    return this.inIds[n];
  }

  private own(): void {
    if (!this.shared) return;
    this.ids = this.ids.slice();
    this.numbers = new Map(this.numbers);
    this.shared = false;
  }
}

/** Every node's incoming edges in two flat arrays: the sources of node `n` are `sources[start[n] .. start[n + 1]]`. */
interface Reverse {
  start: Int32Array;
  sources: Int32Array;
}

function reverseEdges(out: readonly (readonly number[])[]): Reverse {
  const start = new Int32Array(out.length + 1);
  for (const list of out) for (const to of list) start[to + 1]!++;
  for (let n = 0; n < out.length; n++) start[n + 1]! += start[n]!;
  const sources = new Int32Array(start[out.length]!);
  const fill = start.slice(0, out.length);
  for (let from = 0; from < out.length; from++) for (const to of out[from]!) sources[fill[to]!++] = from;
  return { start, sources };
}
