import path from 'node:path';
import type { FileRead, Value } from '../evaluation';
import type { StackEdge, StackGraph, StackLink, StackNode, StackSourceFile } from '../stacks';
import { localPath } from './discovery';
import type { ChildModules, EvaluatedModule, FileInput } from './evaluatedModule';
import type { FileFacts } from './fileFacts';
import { evaluateModule } from './moduleEvaluation';
import type { ScannedDir } from './workspaceScan';

/** A node of a Terraform Stack in the workspace's graph: the Stack's folder id and its address there. */
export interface StackComponentRef {
  stackId: string;
  address: string;
}

/**
 * The nodes of the workspace's Terraform Stacks, by id: `<stack folder>/component.<name>` and
 * `<stack folder>/stack.<name>` for an embedded stack. A Stack is a folder with component files.
 */
export function discoverStackComponents(
  dirs: ReadonlyMap<string, ScannedDir>,
  factsOf: (file: string) => FileFacts | undefined,
): Map<string, StackComponentRef> {
  const found = new Map<string, StackComponentRef>();
  for (const [stackId, dir] of dirs) {
    for (const file of dir.stackFiles) {
      const stack = factsOf(file)?.stack;
      if (stack?.kind !== 'components') continue;
      for (const block of stack.components)
        found.set(componentId(stackId, `component.${block.name}`), { stackId, address: `component.${block.name}` });
      for (const block of stack.stacks)
        found.set(componentId(stackId, `stack.${block.name}`), { stackId, address: `stack.${block.name}` });
    }
  }
  return found;
}

/** The id of a Stack's node in the workspace's graph. */
export function componentId(stackId: string, address: string): string {
  return stackId === '.' ? address : `${stackId}/${address}`;
}

/** The files of a Stack's folder with their facts, as its component graph reads them. */
export function stackSourceFiles(dir: ScannedDir, factsOf: (file: string) => FileFacts | undefined): StackSourceFile[] {
  return dir.stackFiles.flatMap((file) => {
    const facts = factsOf(file)?.stack;
    return facts ? [{ path: file, facts }] : [];
  });
}

/**
 * A Stack's component (or embedded stack) as a node of the workspace's graph: no backend (its state
 * is HCP Terraform's), its edges those of the Stack's graph that leave it, by id.
 */
export function componentModule(
  id: string,
  dir: ScannedDir,
  graph: StackGraph,
  node: StackNode,
  others: OtherStacks,
  code: ComponentCode | undefined,
  sourceFile: string | undefined,
): EvaluatedModule {
  const own = (address: string) => componentId(dir.id, address);
  // Its Stack's files, and its module's folder when the module is one of the repository's.
  const reads: FileRead[] = [{ target: { kind: 'folder', dir: dir.dir, files: 'stack' }, how: 'its Stack' }];
  if (code) reads.push({ target: { kind: 'folder', dir: code.dir, files: 'code' }, how: 'its source' });
  // Its module's own remote-state reads, with the component's inputs as its variables, are its edges too.
  const module =
    code &&
    evaluateModule(
      {
        id,
        dir: code.dir,
        files: code.files,
        varFiles: [],
        backendFiles: [],
        terraformWorkspace: undefined,
        variables: code.variables,
        reads,
      },
      code.children,
    );
  return {
    id,
    dir: dir.dir,
    kind: 'component',
    backend: undefined,
    references: module?.references ?? [],
    dependencies: [],
    problems: module?.problems ?? [],
    reads: module?.reads ?? reads,
    component: {
      address: node.address,
      file: node.file,
      range: node.block.range,
      headerRange: node.block.headerRange,
      source: node.source,
      sourceLink:
        sourceFile !== undefined && node.block.source
          ? { range: node.block.source.range, file: sourceFile }
          : undefined,
      instances: node.instances,
      edges: [
        ...graph.edges
          .filter((edge) => edge.from === node.address)
          .map((edge) => ({ ...edge, from: id, to: own(edge.to) })),
        ...linkedEdges(id, node, others),
        ...embeddingEdges(id, node, others.embeddedBy),
        ...embeddedStackEdges(id, node, others.embeds),
      ],
      unknown: graph.problems.filter((problem) => problem.from === node.address),
    },
  };
}

/** A component's module when its `source` is a folder of the repository: its files, and its inputs as variables. */
export interface ComponentCode {
  dir: string;
  files: readonly FileInput[];
  children: ChildModules;
  variables: ReadonlyMap<string, Value>;
}

/** The folder of a component's module when its `source` is a local path (`./modules/network`), else undefined. */
export function componentSourceDir(stackDir: string, source: string | undefined): string | undefined {
  if (source === undefined || localPath(source) === undefined) return undefined;
  return path.resolve(stackDir, source);
}

/**
 * What a Stack reads of other Stacks: its links by `upstream_input` and each upstream Stack's graph;
 * the `stack` blocks that embed it; for an embedded `stack` node, the Stack its source is.
 */
export interface OtherStacks {
  links: readonly StackLink[];
  graphOf: (stackId: string) => StackGraph | undefined;
  embeddedBy: readonly StackEmbedding[];
  embeds: { stackId: string; graph: StackGraph } | undefined;
}

/** A `stack` block of the Stack in `stackId` whose local `source` is another Stack of the repository. */
export interface StackEmbedding {
  stackId: string;
  node: StackNode;
}

/**
 * An embedded Stack's component waits for what the embedding `stack` block gives the variable it
 * reads: `cluster_name = component.cluster.name` in the block, `var.cluster_name` in the component.
 */
function embeddingEdges(id: string, node: StackNode, embeddedBy: readonly StackEmbedding[]): StackEdge[] {
  return embeddedBy.flatMap((embedding) =>
    node.variableReads.flatMap((variable) =>
      (embedding.node.inputReads[variable.name] ?? []).map((address) => ({
        from: id,
        to: componentId(embedding.stackId, address),
        via: 'inputs' as const,
        through: `var.${variable.name}, set by ${componentId(embedding.stackId, embedding.node.address)}`,
        file: node.file,
        range: variable.range,
      })),
    ),
  );
}

/** An embedded `stack` node is done when every node of the Stack its source is, is. */
function embeddedStackEdges(id: string, node: StackNode, embeds: OtherStacks['embeds']): StackEdge[] {
  const range = node.block.source?.range;
  if (!embeds || !range) return [];
  return embeds.graph.nodes.map((inner) => ({
    from: id,
    to: componentId(embeds.stackId, inner.address),
    via: 'source' as const,
    through: undefined,
    file: node.file,
    range,
  }));
}

/**
 * A component's edges to other Stacks: it reads `var.vpc_id`, a deployment sets it from
 * `upstream_input.network.vpc_id`, the network Stack publishes `vpc_id` from its deployment's output
 * `vpc_id`, which its `output` block takes from `component.vpc`: the component waits for that one.
 */
function linkedEdges(id: string, node: StackNode, upstream: OtherStacks): StackEdge[] {
  const edges: StackEdge[] = [];
  for (const link of upstream.links) {
    const graph = link.to === undefined ? undefined : upstream.graphOf(link.to);
    if (!graph || link.to === undefined) continue;
    for (const variable of node.variableReads) {
      for (const read of link.reads.filter((candidate) => candidate.variable === variable.name)) {
        const addresses = (link.published[read.output] ?? []).flatMap((output) => graph.outputs[output] ?? []);
        for (const address of new Set(addresses)) {
          edges.push({
            from: id,
            to: componentId(link.to, address),
            via: 'upstream_input',
            through: `var.${variable.name}, upstream_input.${link.input}.${read.output}`,
            file: node.file,
            range: variable.range,
          });
        }
      }
    }
  }
  return edges;
}
