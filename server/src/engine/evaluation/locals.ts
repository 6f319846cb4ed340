import { cyclePath, DependencyGraph, stronglyConnectedComponents } from '../graph';
import type { Expr } from '../hcl';
import { type EvalScope, evaluate } from './evaluate';
import { referencedNames } from './expressionReferences';
import { failure, isObjectValue, type Value } from './value';

export interface NamedValues {
  /** Every name's value; members of a cycle are unknown with the cycle as the reason. */
  values: Map<string, Value>;
  /** Each cycle as a closed path of names: `["a", "b", "a"]`. */
  cycles: string[][];
}

/** One step of an evaluation of named expressions: a name, or the names of a cycle (closed path `cycle`). */
interface NamedStep {
  names: string[];
  cycle?: string[];
}

/**
 * The steps of evaluating the named expressions of one source (the `locals` of a file's facts), kept with it:
 * the order depends on the expressions alone, and a Terragrunt repository evaluates its `root.hcl`'s locals
 * again for each of its thousands of units, each time in a scope of its own.
 */
const stepsBySource = new WeakMap<object, { root: string; steps: NamedStep[] }>();

/**
 * Evaluates named expressions that may refer to each other under `root` (a module's locals:
 * `local.b = "${local.a}-x"`), each after the names it references: a topological order of the
 * reference graph. Names on a cycle are unknown (`local.a -> local.b -> local.a is a cycle`) and
 * so is everything that depends on them. `base` provides the other roots (`var`, `path`, …).
 * `source`: what `exprs` were made from, and always make the same (facts are not changed): their order is
 * worked out once for it.
 */
export function evaluateNamed(
  exprs: ReadonlyMap<string, Expr>,
  root: string,
  base: EvalScope,
  source?: object,
): NamedValues {
  const inherited = base.get(root);
  const known: Record<string, Value> = isObjectValue(inherited ?? null) ? { ...(inherited as object) } : {};
  const scope = new Map(base);
  scope.set(root, known);
  const values = new Map<string, Value>();
  const cycles: string[][] = [];
  for (const step of stepsOf(exprs, root, source)) {
    if (step.cycle) {
      cycles.push(step.cycle);
      const reason = `${step.cycle.map((name) => `${root}.${name}`).join(' -> ')} is a cycle`;
      for (const name of step.names) {
        known[name] = failure(reason);
        values.set(name, known[name]);
      }
      continue;
    }
    const name = step.names[0]!;
    known[name] = evaluate(exprs.get(name) as Expr, scope);
    values.set(name, known[name]);
  }
  return { values, cycles };
}

function stepsOf(exprs: ReadonlyMap<string, Expr>, root: string, source: object | undefined): NamedStep[] {
  const kept = source && stepsBySource.get(source);
  if (kept && kept.root === root) return kept.steps;
  const steps = namedSteps(exprs, root);
  if (source) stepsBySource.set(source, { root, steps });
  return steps;
}

function namedSteps(exprs: ReadonlyMap<string, Expr>, root: string): NamedStep[] {
  const dependencies = new DependencyGraph(exprs.keys());
  for (const [name, expr] of exprs) {
    for (const dep of referencedNames(expr, root)) if (exprs.has(dep)) dependencies.addEdge(name, dep);
  }
  return stronglyConnectedComponents(dependencies).map((component): NamedStep => {
    const cyclic = component.length > 1 || dependencies.dependencies(component[0]!).includes(component[0]!);
    return cyclic ? { names: component, cycle: cyclePath(dependencies, component) } : { names: component };
  });
}
