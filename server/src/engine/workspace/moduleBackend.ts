import path from 'node:path';
import {
  type EvalScope,
  evaluate,
  expressionReferences,
  isUnknown,
  type ObjectValue,
  objectOrUnknown,
  type Unknown,
} from '../evaluation';
import type { ModuleBackend, ModuleInput, ModuleProblem } from './evaluatedModule';
import type { BackendBlock } from './fileFacts';

/**
 * The module's backend. Terraform allows no variables in a backend block, so it is evaluated in an
 * empty scope, and a reference there is Terraform's error; OpenTofu evaluates it in the module's
 * scope (`early`: its variables, with the environment's values, and locals). Partial backend files
 * each complete it into one alternative configuration.
 */
export function moduleBackend(
  input: ModuleInput,
  problems: ModuleProblem[],
  early: EvalScope | undefined,
): ModuleBackend | undefined {
  const found: { file: string; block: BackendBlock }[] = [];
  for (const { file, facts } of input.files) for (const block of facts.backends) found.push({ file, block });
  const first = found[0];
  if (!first) return undefined;
  for (const extra of found.slice(1)) {
    problems.push({
      file: extra.file,
      range: extra.block.headerRange,
      message: 'a module can declare only one backend; this one is ignored',
    });
  }
  const empty: EvalScope = new Map();
  if (early === undefined) {
    const [reference] = expressionReferences(first.block.config);
    if (reference !== undefined)
      problems.push({
        file: first.file,
        range: reference.range,
        message: VARIABLES_NOT_ALLOWED,
        error: 'variables-not-allowed',
      });
  }
  const blockConfig = objectOrUnknown(evaluate(first.block.config, early ?? empty), 'backend configuration');
  const configs: ModuleBackend['configs'] =
    input.backendFiles.length === 0
      ? [{ config: completedByCi(blockConfig, input), from: undefined }]
      : input.backendFiles.map(({ file, facts }) => ({
          config: isUnknown(blockConfig)
            ? blockConfig
            : {
                ...blockConfig,
                ...Object.fromEntries(facts.attributes.map((attr) => [attr.name, evaluate(attr.expr, empty)])),
              },
          from: file,
        }));
  return {
    type: first.block.type,
    file: first.file,
    range: first.block.range,
    headerRange: first.block.headerRange,
    configs,
  };
}

/** Terraform's own error, with what OpenTofu does instead. */
const VARIABLES_NOT_ALLOWED =
  'Variables not allowed: Variables may not be used here. (Terraform reads the backend before any variable; ' +
  'OpenTofu 1.8 and later evaluates variables and locals there: engine: tofu in .terrace.yaml.)';

/** The block completed by what CI passes (the block's own arguments stay), `{module}` and `{name}` filled in. */
function completedByCi(config: ObjectValue | Unknown, input: ModuleInput): ObjectValue | Unknown {
  const given = Object.entries(input.backendConfig ?? {});
  if (given.length === 0 || isUnknown(config)) return config;
  const name = path.basename(input.dir);
  const filled = given.map(([key, text]) => [key, text.replaceAll('{module}', input.id).replaceAll('{name}', name)]);
  return { ...Object.fromEntries(filled), ...config };
}
