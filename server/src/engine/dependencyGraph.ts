/**
 * A directed graph of module ids, edges pointing from a module to what it depends on
 * (reader → writer). Only structure: the algorithms over it live in their own files.
 */
export class DependencyGraph {
  private readonly out = new Map<string, Set<string>>();
  private readonly in = new Map<string, Set<string>>();

  constructor(nodes: Iterable<string> = []) {
    for (const node of nodes) this.addNode(node);
  }

  addNode(node: string): void {
    if (!this.out.has(node)) {
      this.out.set(node, new Set());
      this.in.set(node, new Set());
    }
  }

  /** Adds `from → to` (from depends on to); both nodes are added when missing. */
  addEdge(from: string, to: string): void {
    this.addNode(from);
    this.addNode(to);
    this.out.get(from)!.add(to);
    this.in.get(to)!.add(from);
  }

  nodes(): string[] {
    return [...this.out.keys()];
  }

  has(node: string): boolean {
    return this.out.has(node);
  }

  /** What `node` depends on. */
  dependencies(node: string): ReadonlySet<string> {
    return this.out.get(node) ?? new Set();
  }

  /** What depends on `node`. */
  dependents(node: string): ReadonlySet<string> {
    return this.in.get(node) ?? new Set();
  }
}
