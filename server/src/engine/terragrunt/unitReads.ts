import path from 'node:path';
import { callRead, type FileRead, fileCalls, isUnknown, pathTarget, type Value } from '../evaluation';
import type { CallExpr, Expr } from '../hcl';
import { evaluatedExpressions, type TerragruntFile } from './terragruntFile';
import { TERRAGRUNT_FILE_FUNCTIONS } from './terragruntFunctions';

/** The calls of file functions in a configuration, found once per file content: a root file is read by every unit. */
const callsByFile = new WeakMap<TerragruntFile, CallExpr[]>();

/**
 * What the file functions of a configuration read (`yamldecode(file(…))`, `templatefile`, `sops_decrypt_file`,
 * `mark_as_read`), their arguments evaluated by `evaluateArg` in the unit's context and relative paths taken
 * from the folder of the file that calls them, as Terragrunt takes them.
 */
export function fileCallReads(facts: TerragruntFile, evaluateArg: (expr: Expr) => Value, file: string): FileRead[] {
  let calls = callsByFile.get(facts);
  if (!calls) {
    calls = [];
    for (const expr of evaluatedExpressions(facts)) fileCalls(expr, calls, TERRAGRUNT_FILE_FUNCTIONS);
    callsByFile.set(facts, calls);
  }
  return calls.flatMap((call) => callRead(call, evaluateArg, path.dirname(file), file) ?? []);
}

/**
 * The variable files `extra_arguments` blocks give Terraform: each of `required_var_files` and
 * `optional_var_files`, and each `-var-file=` of `arguments`; relative paths taken from the unit's folder.
 */
export function extraArgumentReads(
  facts: TerragruntFile,
  evaluateArg: (expr: Expr) => Value,
  unitDir: string,
  file: string,
): FileRead[] {
  const reads: FileRead[] = [];
  for (const { block, attribute } of facts.extraArguments) {
    const value = evaluateArg(attribute.expr);
    const arguments_ = attribute.name === 'arguments';
    // A list not known as a whole may name any file: not for `arguments`, which may name none.
    const items: Value[] = Array.isArray(value) ? value : arguments_ ? [] : [value];
    for (const item of items) {
      const named = arguments_ ? varFileArgument(item) : item;
      const target = named === undefined ? undefined : pathTarget(named, unitDir);
      if (target)
        reads.push({ target, how: `extra_arguments "${block}"`, at: { file, line: attribute.range.start.line + 1 } });
    }
  }
  return reads;
}

const VAR_FILE = '-var-file=';

/** The file a `-var-file=<file>` argument names, known or known in part; undefined for any other argument. */
function varFileArgument(item: Value): Value | undefined {
  if (typeof item === 'string') return item.startsWith(VAR_FILE) ? item.slice(VAR_FILE.length) : undefined;
  const first = isUnknown(item) ? item.text?.[0] : undefined;
  if (typeof first !== 'string' || !first.startsWith(VAR_FILE) || !isUnknown(item)) return undefined;
  const rest = first.slice(VAR_FILE.length);
  return { ...item, text: [...(rest === '' ? [] : [rest]), ...item.text!.slice(1)] };
}
