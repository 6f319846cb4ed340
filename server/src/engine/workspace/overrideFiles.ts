import path from 'node:path';
import type { FileInput } from './evaluatedModule';
import type { FileFacts, ModuleCall, NamedExpr, RemoteStateBlock, VariableDecl } from './fileFacts';

/**
 * Terraform's override files: `override.tf`, `*_override.tf` and their `.tf.json` forms (and OpenTofu's
 * `.tofu` forms), loaded after a module's other files and merged over them (a `backend_override.tf` is a
 * common way to point a root at another backend).
 */
export function isOverrideFile(file: string): boolean {
  const name = path.basename(file).replace(/\.(tf|tofu)(\.json)?$/, '');
  return name !== path.basename(file) && (name === 'override' || name.endsWith('_override'));
}

/**
 * Files Terraform never reads, by name: hidden ones (`.old.tf`) and editors' backups (`main.tf~`,
 * `#main.tf#`), as its configuration loader decides.
 */
export function isIgnoredByTerraform(name: string): boolean {
  return name.startsWith('.') || name.endsWith('~') || (name.startsWith('#') && name.endsWith('#'));
}

/**
 * A module's files as Terraform merges them: each override file, in name order, over the others.
 * A backend in an override replaces the module's backend; a `terraform_remote_state` block, a
 * module call or a variable takes the arguments its override sets (a call's arguments one by one);
 * a local is replaced by name. Blocks of an override with no block of the same name to override
 * are left out (Terraform refuses them). The facts are shared between files of the same content:
 * merged copies are made, never changed in place.
 */
export function withOverrides(files: readonly FileInput[]): readonly FileInput[] {
  const overrides = files.filter((input) => isOverrideFile(input.file));
  if (overrides.length === 0) return files;
  let merged = files
    .filter((input) => !isOverrideFile(input.file))
    .map((input) => ({ file: input.file, facts: { ...input.facts } }));
  const backends: FileInput[] = [];
  for (const { file, facts } of [...overrides].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0))) {
    if (facts.backends.length > 0) {
      // The override's backend is the module's now: the others' go, with any earlier override's.
      for (const input of merged) input.facts.backends = [];
      backends.length = 0;
      backends.push({ file, facts: { ...emptyFacts(facts), backends: facts.backends } });
    }
    merged = merged.map((input) => ({ file: input.file, facts: overridden(input.facts, facts) }));
  }
  return [...merged, ...backends];
}

function overridden(base: FileFacts, override: FileFacts): FileFacts {
  return {
    ...base,
    remoteStates: byName(base.remoteStates, override.remoteStates, mergeRemoteState),
    locals: byName(base.locals, override.locals, (_, local) => local),
    variables: byName(
      base.variables,
      override.variables,
      (variable, over): VariableDecl => ({
        ...variable,
        default: over.default ?? variable.default,
      }),
    ),
    moduleCalls: byName(base.moduleCalls, override.moduleCalls, mergeModuleCall),
  };
}

function byName<T extends { name: string }>(
  base: readonly T[],
  overrides: readonly T[],
  merge: (base: T, override: T) => T,
): T[] {
  if (overrides.length === 0) return base as T[];
  return base.map((item) => overrides.filter((over) => over.name === item.name).reduce(merge, item));
}

function mergeRemoteState(base: RemoteStateBlock, over: RemoteStateBlock): RemoteStateBlock {
  return {
    ...base,
    backend: over.backend ?? base.backend,
    config: over.config ?? base.config,
    workspace: over.workspace ?? base.workspace,
    forEach: over.forEach ?? base.forEach,
    count: over.count ?? base.count,
    defaults: over.defaults ?? base.defaults,
  };
}

function mergeModuleCall(base: ModuleCall, over: ModuleCall): ModuleCall {
  const args = new Map<string, NamedExpr>(base.args.map((arg) => [arg.name, arg]));
  for (const arg of over.args) args.set(arg.name, arg);
  return {
    ...base,
    source: over.source ?? base.source,
    forEach: over.forEach ?? base.forEach,
    count: over.count ?? base.count,
    args: [...args.values()],
  };
}

function emptyFacts(facts: FileFacts): FileFacts {
  return { ...facts, remoteStates: [], locals: [], variables: [], moduleCalls: [], attributes: [], syntaxErrors: [] };
}
