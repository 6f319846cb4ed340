import { type EvalScope, evaluate, evaluateNamed, isObjectValue, unknown, type Value } from '../evaluation';
import type { Expr } from '../hcl';
import type { StackSourceFile } from './stackFile';

/**
 * The Stack's variables as one deployment sets them: its `inputs` evaluated (an `upstream_input` or a
 * store's value stays unknown); undefined when the Stack has no deployment of that name.
 */
export function deploymentVariables(
  files: readonly StackSourceFile[],
  deployment: string,
): ReadonlyMap<string, Value> | undefined {
  const found = files.flatMap(({ facts }) => facts.deployments).find((candidate) => candidate.name === deployment);
  if (!found) return undefined;
  const { values } = evaluateNamed(deploymentLocals(files), 'local', new Map());
  const scope: EvalScope = new Map<string, Value>([['local', Object.fromEntries(values)]]);
  const inputs = found.inputs ? evaluate(found.inputs.expr, scope) : {};
  return new Map(isObjectValue(inputs) ? Object.entries(inputs) : []);
}

/** The locals of a Stack's deployment files, by name: `inputs = { region = local.region }`. */
export function deploymentLocals(files: readonly StackSourceFile[]): Map<string, Expr> {
  const locals = new Map<string, Expr>();
  for (const { facts } of files)
    if (facts.kind === 'deployments') for (const local of facts.locals) locals.set(local.name, local.expr);
  return locals;
}

/** The deployment selected as the environment, with its values for this Stack (none when it has no such deployment). */
export interface SelectedDeployment {
  name: string;
  variables: ReadonlyMap<string, Value> | undefined;
}

/** A Stack's `var` (as the deployment sets them, else unknown) and `local`, as its component files see them. */
export function stackScope(files: readonly StackSourceFile[], deployment: SelectedDeployment | undefined): EvalScope {
  const vars: Record<string, Value> = {};
  const locals = new Map<string, Expr>();
  for (const { facts } of files) {
    if (facts.kind !== 'components') continue;
    for (const variable of facts.variables) {
      vars[variable.name] =
        deployment?.variables?.get(variable.name) ??
        unknown(
          deployment
            ? `var.${variable.name} is not set by deployment ${deployment.name}`
            : `var.${variable.name} is set by each deployment (none is selected)`,
        );
    }
    for (const local of facts.locals) locals.set(local.name, local.expr);
  }
  const scope: EvalScope = new Map<string, Value>([['var', vars]]);
  const { values } = evaluateNamed(locals, 'local', scope);
  return new Map<string, Value>([...scope, ['local', Object.fromEntries(values)]]);
}
