import { type ExpressionReference, evaluate, expressionReferences } from '../evaluation';
import { type Expr, keyName, type Range } from '../hcl';
import type { StackSourceFile, UpstreamInputBlock } from './stackFile';
import { deploymentLocals } from './stackScope';

/** A Stack of the repository: its folder (relative, `/`-separated) and its files. */
export interface RepositoryStack {
  folder: string;
  files: StackSourceFile[];
}

/** An `upstream_input` of a Stack, matched to the Stack of the repository that publishes it, or why not. */
export interface StackLink {
  /** The downstream Stack's folder. */
  from: string;
  /** The upstream Stack's folder; undefined when unresolved. */
  to: string | undefined;
  input: string;
  /** The upstream's address as written (`app.terraform.io/acme/platform/network`). */
  source: string | undefined;
  file: string;
  range: Range;
  /** Why the link has no Stack, or what it reads that the upstream does not publish. */
  problem: string | undefined;
  /** The downstream's variables its deployments set from this input's outputs: `vpc_id` from `upstream_input.network.vpc_id`. */
  reads: { variable: string; output: string }[];
  /** The upstream's published outputs, each with the deployment outputs its value reads (`deployment.prod.vpc_id`: `vpc_id`). */
  published: Record<string, string[]>;
}

/**
 * The links between the repository's Stacks: each `upstream_input` of type `stack` is matched to the
 * Stack whose folder has the name its `source` ends with (HCP Terraform names a Stack by its project
 * and name; the repository knows only its folders). An input that matches no Stack, or several, is
 * unresolved with the reason; outputs the downstream reads (`upstream_input.network.vpc_id`) that the
 * upstream does not publish are reported on the link.
 */
export function stackLinks(stacks: readonly RepositoryStack[]): StackLink[] {
  const byName = new Map<string, RepositoryStack[]>();
  for (const stack of stacks) {
    const name = stack.folder.split('/').at(-1) ?? stack.folder;
    byName.set(name, [...(byName.get(name) ?? []), stack]);
  }
  return stacks.flatMap((stack) =>
    stack.files.flatMap(({ path, facts }) =>
      facts.upstreamInputs.map((input) => link(stack, path, input, byName, inputReads(stack, input.name))),
    ),
  );
}

function link(
  stack: RepositoryStack,
  file: string,
  input: UpstreamInputBlock,
  byName: ReadonlyMap<string, RepositoryStack[]>,
  reads: StackLink['reads'],
): StackLink {
  const base = { from: stack.folder, input: input.name, file, range: input.headerRange, reads, published: {} };
  const type = input.type && evaluate(input.type.expr, new Map());
  const value = input.source && evaluate(input.source.expr, new Map());
  const source = typeof value === 'string' ? value : undefined;
  if (type !== undefined && type !== 'stack') {
    return { ...base, to: undefined, source, problem: `an upstream input of type ${String(type)} is not a Stack` };
  }
  if (source === undefined) {
    return { ...base, to: undefined, source, problem: 'its source is not a constant string' };
  }
  const name = source.replace(/\/+$/, '').split('/').at(-1) ?? source;
  const candidates = (byName.get(name) ?? []).filter((candidate) => candidate !== stack);
  if (candidates.length === 0) {
    return { ...base, to: undefined, source, problem: `no Stack of this repository is in a folder named ${name}` };
  }
  if (candidates.length > 1) {
    const folders = candidates.map((candidate) => candidate.folder).join(', ');
    return {
      ...base,
      to: undefined,
      source,
      problem: `${candidates.length} Stacks are in folders named ${name}: ${folders}`,
    };
  }
  const upstream = candidates[0]!;
  const published = publishedOutputs(upstream);
  const missing = [...new Set(reads.map((read) => read.output))].filter((output) => !(output in published)).sort();
  return {
    ...base,
    published,
    to: upstream.folder,
    source,
    problem: missing.length ? `${upstream.folder} publishes no ${missing.join(', ')}` : undefined,
  };
}

/** The variables a Stack's deployments set from an upstream input's outputs: `vpc_id = upstream_input.network.vpc_id`. */
function inputReads(stack: RepositoryStack, input: string): StackLink['reads'] {
  const reads = new Map<string, { variable: string; output: string }>();
  const locals = deploymentLocals(stack.files);
  for (const { facts } of stack.files) {
    for (const deployment of facts.deployments) {
      const inputs = deployment.inputs?.expr;
      if (inputs?.kind !== 'object') continue;
      for (const item of inputs.items) {
        const variable = keyName(item.key);
        if (variable === undefined) continue;
        for (const reference of referencesThroughLocals(item.value, locals, new Set())) {
          const [name, output] = reference.names;
          if (reference.root === 'upstream_input' && name === input && output !== undefined)
            reads.set(`${variable}\u0000${output}`, { variable, output });
        }
      }
    }
  }
  return [...reads.values()];
}

/** An expression's references, a local's replaced by those of its value (`local.vpc` → `upstream_input.network.vpc_id`). */
function referencesThroughLocals(
  expr: Expr,
  locals: ReadonlyMap<string, Expr>,
  seen: Set<string>,
): ExpressionReference[] {
  return expressionReferences(expr).flatMap((reference) => {
    const name = reference.names[0];
    if (reference.root !== 'local' || name === undefined) return [reference];
    const value = locals.get(name);
    if (value === undefined || seen.has(name)) return [];
    seen.add(name);
    return referencesThroughLocals(value, locals, seen);
  });
}

/** Each `publish_output` of a Stack, with the deployment outputs its value reads. */
function publishedOutputs(stack: RepositoryStack): Record<string, string[]> {
  const published: Record<string, string[]> = {};
  for (const { facts } of stack.files) {
    for (const output of facts.publishOutputs) {
      const read = output.value ? expressionReferences(output.value.expr) : [];
      published[output.name] = [
        ...new Set(
          read.flatMap((reference) =>
            reference.root === 'deployment' && reference.names[1] ? [reference.names[1]] : [],
          ),
        ),
      ];
    }
  }
  return published;
}
