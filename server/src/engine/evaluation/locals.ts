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

/**
 * Evaluates named expressions that may refer to each other under `root` (a module's locals:
 * `local.b = "${local.a}-x"`), each after the names it references: a topological order of the
 * reference graph. Names on a cycle are unknown (`local.a -> local.b -> local.a is a cycle`) and
 * so is everything that depends on them. `base` provides the other roots (`var`, `path`, …).
 */
export function evaluateNamed(exprs: ReadonlyMap<string, Expr>, root: string, base: EvalScope): NamedValues {
  const dependencies = new DependencyGraph(exprs.keys());
  for (const [name, expr] of exprs) {
    for (const dep of referencedNames(expr, root)) if (exprs.has(dep)) dependencies.addEdge(name, dep);
  }
  const inherited = base.get(root);
  const known: Record<string, Value> = isObjectValue(inherited ?? null) ? { ...(inherited as object) } : {};
  const scope = new Map(base);
  scope.set(root, known);
  const values = new Map<string, Value>();
  const cycles: string[][] = [];
  for (const component of stronglyConnectedComponents(dependencies)) {
    const cyclic = component.length > 1 || dependencies.dependencies(component[0]!).includes(component[0]!);
    if (cyclic) {
      const cycle = cyclePath(dependencies, component);
      cycles.push(cycle);
      const reason = `${cycle.map((name) => `${root}.${name}`).join(' -> ')} is a cycle`;
      for (const name of component) {
        known[name] = failure(reason);
        values.set(name, known[name]);
      }
      continue;
    }
    const name = component[0]!;
    const expr = exprs.get(name) as Expr;
    known[name] = evaluate(expr, scope);
    values.set(name, known[name]);
  }
  return { values, cycles };
}
