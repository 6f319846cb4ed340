import path from 'node:path';
import { type EvalScope, folderRelative } from '../../evaluation';
import {
  componentGraph,
  componentInputs,
  deploymentVariables,
  type StackGraph,
  type StackLink,
  type StackNode,
  type StackSourceFile,
  stackLinks,
  stackScope,
} from '../../stacks';
import { type MatchResult, withComponentEdges } from '../../state';
import {
  type ComponentCode,
  type ComponentFacts,
  componentModule,
  componentSourceDir,
  discoverStackComponents,
  type EvaluatedModule,
  type FileFacts,
  type ScannedDir,
  type StackComponentRef,
  type StackEmbedding,
  stackSourceFiles,
} from '../../workspace';
import { childModules, fileInputs } from '../moduleFiles';
import type { FoundNodes, KindProblem, KindWorkspace, NodeDescription, NodeEvaluation, NodeKind } from '../nodeKind';

/**
 * Terraform Stacks' components and embedded stacks, each Stack a folder of component files: a node's
 * edges are its Stack's graph's, those to other Stacks by `upstream_input` and by embedding, and its
 * module's remote-state reads with the component's inputs as its variables.
 */
export class StackComponentKind implements NodeKind {
  readonly name = 'component';
  /** A Stack's deployments are its environments: the selected one sets its variables. */
  readonly hasEnvironments = false;
  /** The nodes of the workspace's Stacks, by id; decided with the roots. */
  private components = new Map<string, StackComponentRef>();
  /** Each Stack's graph, by its folder id; forgotten when a file of its folder changes. */
  private readonly stackGraphs = new Map<string, StackGraph>();
  /** A Stack's `var` and `local` in the selected deployment, once for all its components; forgotten with its graph. */
  private readonly stackScopes = new Map<string, EvalScope>();
  private links: StackLink[] | undefined;
  private embeddings: Map<string, StackEmbedding[]> | undefined;
  private readonly componentEdgeCache = new WeakMap<MatchResult, MatchResult>();

  constructor(private readonly workspace: KindWorkspace) {}

  /** A component or stack block added, renamed or removed changes the nodes. */
  nodesKey(facts: FileFacts): string {
    return facts.stack ? [...facts.stack.components, ...facts.stack.stacks].map((block) => block.name).join(',') : '';
  }

  discover(): FoundNodes {
    this.components = discoverStackComponents(this.workspace.dirs(), (file) => this.workspace.factsOf(file));
    this.stackGraphs.clear();
    this.stackScopes.clear();
    this.links = undefined;
    this.embeddings = undefined;
    return { ids: [...this.components.keys()], codeDirs: new Set(), stale: [] };
  }

  /** A Stack's component or embedded stack, from its Stack's graph and what it reads of other Stacks. */
  evaluate(id: string): NodeEvaluation {
    const { stackId, address } = this.components.get(id)!;
    const dir = this.workspace.dirs().get(stackId)!;
    const graph = this.stackGraph(stackId)!;
    const node = graph.nodes.find((candidate) => candidate.address === address)!;
    const links = this.stackLinks().filter((link) => link.from === stackId);
    const embeddedBy = this.stackEmbeddings().get(stackId) ?? [];
    const embeds = node.kind === 'stack' ? this.embeddedStack(dir, node) : undefined;
    // The folders of its upstream Stacks, of the Stacks that embed it and of the one it embeds decide its edges too.
    const others = [
      ...links.flatMap((link) => (link.to === undefined ? [] : [link.to])),
      ...embeddedBy.map((embedding) => embedding.stackId),
      ...(embeds ? [embeds.stackId] : []),
    ];
    const read = new Set([dir.dir, ...others.map((other) => this.workspace.dirs().get(other)?.dir ?? '')]);
    const code = this.componentCode(dir, node, read);
    const module = componentModule(
      id,
      dir,
      graph,
      node,
      { links, graphOf: (other) => this.stackGraph(other), embeddedBy, embeds },
      code,
      this.sourceFile(dir, node, code),
    );
    return { module, read };
  }

  differsIn(): boolean {
    return false;
  }

  placeOf(id: string): { dir: string; file: string } {
    const dirs = this.workspace.dirs();
    const dir = dirs.get(this.components.get(id)?.stackId ?? id)?.dir ?? path.join(this.workspace.root, id);
    return { dir, file: dirs.get(id)?.tfFiles[0] ?? dir };
  }

  /** The Stack's edges that leave the node, added to its matches; cached per matches. */
  withEdges(module: EvaluatedModule, own: MatchResult): MatchResult {
    if (!module.component) return own;
    let result = this.componentEdgeCache.get(own);
    if (!result) {
      result = withComponentEdges(module, own);
      this.componentEdgeCache.set(own, result);
    }
    return result;
  }

  /** A component opens at its Stack's file; its segments are its Stack folder's (`component.x` is no folder of the pattern). */
  describe(module: EvaluatedModule): NodeDescription {
    if (!module.component) return { folder: module.id, shown: { firstFile: module.problems[0]?.file ?? module.dir } };
    return {
      folder: folderRelative(this.workspace.root, module.dir),
      shown: { firstFile: module.component.file, component: componentSummary(module.component) },
    };
  }

  forget(folder: string): void {
    const stack = this.workspace.dirOf(folder);
    if (!stack) return;
    this.stackGraphs.delete(stack.id);
    this.stackScopes.delete(stack.id);
    if (stack.stackFiles.length > 0) {
      this.links = undefined;
      this.embeddings = undefined;
    }
  }

  /** Each Stack's deployments. */
  environmentNames(): readonly string[] {
    return [...this.workspace.dirs().values()].flatMap((dir) =>
      dir.stackFiles.flatMap((file) => this.workspace.factsOf(file)?.stack?.deployments.map(({ name }) => name) ?? []),
    );
  }

  /** A Stack's upstream inputs that find no Stack, or read what it does not publish: said once per input. */
  problems(): readonly KindProblem[] {
    if (this.components.size === 0) return [];
    return this.stackLinks().flatMap((link) =>
      link.problem === undefined
        ? []
        : [{ file: link.file, range: link.range, message: `upstream_input "${link.input}": ${link.problem}` }],
    );
  }

  /** The Stack an embedded `stack` block's local `source` names, with its graph. */
  private embeddedStack(dir: ScannedDir, node: StackNode): { stackId: string; graph: StackGraph } | undefined {
    const source = componentSourceDir(dir.dir, node.source);
    const embedded = source === undefined ? undefined : this.workspace.dirOf(source);
    const graph = embedded && embedded.stackFiles.length > 0 ? this.stackGraph(embedded.id) : undefined;
    return embedded && graph ? { stackId: embedded.id, graph } : undefined;
  }

  /** By Stack folder, the `stack` blocks of other Stacks that embed it (their local `source` is its folder). */
  private stackEmbeddings(): ReadonlyMap<string, StackEmbedding[]> {
    if (!this.embeddings) {
      const embeddings = new Map<string, StackEmbedding[]>();
      for (const dir of this.workspace.dirs().values()) {
        if (dir.stackFiles.length === 0) continue;
        for (const node of this.stackGraph(dir.id)?.nodes ?? []) {
          const embedded = node.kind === 'stack' ? this.embeddedStack(dir, node) : undefined;
          if (embedded)
            embeddings.set(embedded.stackId, [...(embeddings.get(embedded.stackId) ?? []), { stackId: dir.id, node }]);
        }
      }
      this.embeddings = embeddings;
    }
    return this.embeddings;
  }

  /** The file a node's local `source` opens: its module's `main.tf` (else first file), an embedded Stack's first file. */
  private sourceFile(dir: ScannedDir, node: StackNode, code: ComponentCode | undefined): string | undefined {
    if (code) {
      const files = code.files.map((input) => input.file);
      return files.find((file) => path.basename(file) === 'main.tf') ?? files[0];
    }
    const stackDir = node.kind === 'stack' ? componentSourceDir(dir.dir, node.source) : undefined;
    return stackDir === undefined ? undefined : this.workspace.dirOf(stackDir)?.stackFiles[0];
  }

  /** A component's module in a folder of the workspace, given the component's inputs in the selected deployment. */
  private componentCode(dir: ScannedDir, node: StackNode, read: Set<string>): ComponentCode | undefined {
    const codeDir = node.kind === 'component' ? componentSourceDir(dir.dir, node.source) : undefined;
    if (codeDir === undefined) return undefined;
    read.add(codeDir);
    return {
      dir: codeDir,
      files: fileInputs(this.workspace, this.workspace.dirOf(codeDir)?.tfFiles ?? []),
      variables: componentInputs(node, this.stackScope(dir)),
      children: childModules(this.workspace, read),
    };
  }

  private stackScope(dir: ScannedDir): EvalScope {
    let scope = this.stackScopes.get(dir.id);
    if (!scope) {
      const files = this.sourceFiles(dir);
      const name = this.workspace.options.environment;
      scope = stackScope(files, name === undefined ? undefined : { name, variables: deploymentVariables(files, name) });
      this.stackScopes.set(dir.id, scope);
    }
    return scope;
  }

  private stackGraph(stackId: string): StackGraph | undefined {
    const dir = this.workspace.dirs().get(stackId);
    if (!dir) return undefined;
    let graph = this.stackGraphs.get(stackId);
    if (!graph) {
      graph = componentGraph(this.sourceFiles(dir));
      this.stackGraphs.set(stackId, graph);
    }
    return graph;
  }

  /** The links between the workspace's Stacks by `upstream_input`; forgotten when a Stack's file changes. */
  private stackLinks(): readonly StackLink[] {
    this.links ??= stackLinks(
      [...this.workspace.dirs().values()]
        .filter((dir) => dir.stackFiles.length > 0)
        .map((dir) => ({ folder: dir.id, files: this.sourceFiles(dir) })),
    );
    return this.links;
  }

  private sourceFiles(dir: ScannedDir): StackSourceFile[] {
    return stackSourceFiles(dir, (file) => this.workspace.factsOf(file));
  }
}

/** What a summary keeps of a component: not its edges, which the graph has. */
function componentSummary(component: ComponentFacts): NonNullable<NodeDescription['shown']['component']> {
  const { address, file, range, headerRange, source, sourceLink, instances } = component;
  return { address, file, range, headerRange, source, sourceLink, instances };
}
