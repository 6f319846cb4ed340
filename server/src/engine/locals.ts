import { type EvalScope, evaluate } from './evaluate';
import type { Expr } from './expression';
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
  const dependencies = new Map<string, string[]>();
  for (const [name, expr] of exprs) {
    dependencies.set(
      name,
      [...referencedNames(expr, root)].filter((dep) => exprs.has(dep)),
    );
  }
  const inherited = base.get(root);
  const known: Record<string, Value> = isObjectValue(inherited ?? null) ? { ...(inherited as object) } : {};
  const scope = new Map(base);
  scope.set(root, known);
  const values = new Map<string, Value>();
  const cycles: string[][] = [];
  for (const component of stronglyConnected(dependencies)) {
    const cyclic = component.length > 1 || dependencies.get(component[0])?.includes(component[0]);
    if (cyclic) {
      const cycle = cyclePath(component, dependencies);
      cycles.push(cycle);
      const reason = `${cycle.map((name) => `${root}.${name}`).join(' -> ')} is a cycle`;
      for (const name of component) {
        known[name] = failure(reason);
        values.set(name, known[name]);
      }
      continue;
    }
    const name = component[0];
    const expr = exprs.get(name) as Expr;
    known[name] = evaluate(expr, scope);
    values.set(name, known[name]);
  }
  return { values, cycles };
}

/**
 * Tarjan's strongly connected components. Components come out dependencies first, which is the
 * evaluation order.
 */
function stronglyConnected(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node) as number);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node) as number, low.get(next) as number));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node) as number, index.get(next) as number));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop() as string;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    components.push(component.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return components;
}

/** A closed path through the component, from its first name (alphabetically) back to it. */
function cyclePath(component: readonly string[], graph: ReadonlyMap<string, readonly string[]>): string[] {
  const members = new Set(component);
  const start = component[0];
  const path = [start];
  const seen = new Set([start]);
  const walk = (node: string): boolean => {
    for (const next of graph.get(node) ?? []) {
      if (next === start) return true;
      if (!members.has(next) || seen.has(next)) continue;
      seen.add(next);
      path.push(next);
      if (walk(next)) return true;
      path.pop();
    }
    return false;
  };
  walk(start);
  return [...path, start];
}
