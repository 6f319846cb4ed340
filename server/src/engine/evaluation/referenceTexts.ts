import type { Expr, TraversalExpr, TraversalStep } from '../hcl';
import { type Unknown, unknown } from './value';

/** Why a name's value is not known: `data.x.y is only known after apply`, `local.z is not defined`. */
export function missingRoot(expr: TraversalExpr): Unknown {
  const names = attrNames(expr.steps);
  const path = (count: number): string => [expr.root, ...names.slice(0, count)].join('.');
  switch (expr.root) {
    case 'local':
    case 'var':
      return unknown(`${path(1)} is not defined`);
    case 'data':
      return unknown(`${path(2)} is only known after apply`);
    case 'module':
      return unknown(`${path(2)} is only known after apply`);
    case 'each':
      return unknown(`${path(1)} is only known in a block with for_each`);
    case 'count':
      return unknown(`${path(1)} is only known in a block with count`);
    case 'path':
    case 'terraform':
      return unknown(`${path(1)} is not known here`);
    case 'self':
      return unknown('self is only known in provisioners');
    default:
      return names.length > 0
        ? unknown(`${path(1)} is only known after apply`)
        : unknown(`${expr.root} is not defined`);
  }
}

/** The names of a traversal's leading attribute steps: `module.vpc.outputs` gives `vpc`, `outputs`. */
export function attrNames(steps: readonly TraversalStep[]): string[] {
  const names: string[] = [];
  for (const step of steps) {
    if (step.kind !== 'attr') break;
    names.push(step.name);
  }
  return names;
}

/** A short text for an expression in messages: the traversal itself, or a generic name. */
export function label(expr: Expr): string {
  if (expr.kind === 'traversal') return [expr.root, ...expr.steps.map(stepLabel)].join('');
  if (expr.kind === 'call') return `${expr.name}(…)`;
  return 'the value';
}

function stepLabel(step: TraversalStep): string {
  if (step.kind === 'attr') return `.${step.name}`;
  if (step.kind === 'splat') return '[*]';
  return step.key.kind === 'literal' ? `[${JSON.stringify(step.key.value)}]` : '[…]';
}
