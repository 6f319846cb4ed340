import path from 'node:path';
import type { Range } from '../hcl';
import { UNIT_FILE } from '../terragrunt';
import {
  type EvaluatedModule,
  localSource,
  type ModuleCall,
  type OutputReference,
  type ScannedDir,
  type TryGuard,
  terragruntReferences,
} from '../workspace';
import type { ContractWorkspace } from './contractWorkspace';
import { defaultedOutputs } from './defaultedOutputs';
import { type Carrier, type Carriers, type Reached, reach, type Scope, type StateSource } from './referenceReach';

/** One read of another state's output. */
export interface OutputUse {
  reader: string;
  file: string;
  /** The output's name where it is written (`outputs.<name>`, `["<name>"]`), or the whole reference when it is computed. */
  range: Range;
  /** Written `["name"]`: the range holds the quotes. */
  quoted: boolean;
  source: StateSource;
  /** Undefined when the name is known only at run time (`outputs[var.name]`): never checked. */
  output: string | undefined;
  /** The local or variable the outputs were passed through (`local.remote`), if any. */
  through: string | undefined;
  /**
   * A writer without this output is no error: the `terraform_remote_state` block's `defaults` give it, or
   * `lookup` has a default for it.
   */
  defaulted: boolean;
  /** The innermost `try` or `can` argument the read is in: a missing output there may be no error. */
  guard: TryGuard | undefined;
  /** The module calls that lead from the node's root to the code the read is in (each instance of a child module apart). */
  inModule: string;
}

/** How deep local module calls are followed, as the evaluation does. */
const MAX_DEPTH = 10;
/** Locals carrying locals carrying outputs: as many rounds as that chain is long. */
const MAX_ROUNDS = 4;

/**
 * Where a folder's code holds a state's outputs whole: `local.remote` with the keys `network` leads to
 * them, as the completion after `local.remote.network.` needs.
 */
export interface CarriedOutputs {
  dir: string;
  /** `local.remote`, `var.network`, `module.reader`. */
  name: string;
  /** The keys after the name that lead to the outputs object (`["network"]`; `["outputs"]` for a state). */
  path: readonly string[];
  source: StateSource;
}

/** What a node's code says of other states' outputs: its reads of them, and where it holds them whole. */
export interface NodeReads {
  uses: OutputUse[];
  carried: CarriedOutputs[];
  /**
   * Its references to a state or its outputs whole that no local, argument or output holds (`jsonencode(data.x.outputs)`,
   * `depends_on = [data.x]`): it reads every output of that state. `output` is undefined in each.
   */
  whole: OutputUse[];
}

/** The reads of other states' outputs a node makes: a root's or a unit's Terraform code, a unit's `terragrunt.hcl`. */
export function nodeOutputUses(workspace: ContractWorkspace, module: EvaluatedModule): NodeReads {
  const reads: NodeReads = { uses: [], carried: [], whole: [] };
  if (module.kind === 'module') scopeUses(workspace, module.id, module.dir, new Map(), [], reads);
  if (module.kind === 'unit') {
    const unitFile = path.join(module.dir, UNIT_FILE);
    fileScopeUses(workspace, module.id, module.dir, [unitFile], reads);
    const code = module.codeDir;
    if (code !== undefined) scopeUses(workspace, module.id, code, new Map(), [], reads);
  }
  if (module.kind === 'component' && module.component?.sourceLink && module.component.address.startsWith('component.'))
    scopeUses(workspace, module.id, path.dirname(module.component.sourceLink.file), new Map(), [], reads);
  return reads;
}

/** A Stack's own reads of its components' outputs (`component.<name>.<output>`), in its folder's files. */
export function stackOutputUses(workspace: ContractWorkspace, stackDir: ScannedDir, reader: string): OutputUse[] {
  const reads: NodeReads = { uses: [], carried: [], whole: [] };
  fileScopeUses(workspace, reader, stackDir.dir, stackDir.stackFiles, reads);
  return reads.uses;
}

/** A scope's carriers, as the places its code holds outputs whole. */
function carried(scope: Scope, reads: NodeReads): void {
  const add = (name: string, carrier: Carrier, prefix: readonly string[] = []) =>
    reads.carried.push({
      dir: scope.dir,
      name,
      path: [...prefix, ...carrier.at, ...(carrier.holds === 'state' ? ['outputs'] : [])],
      source: carrier.source,
    });
  for (const [name, list] of scope.locals) for (const carrier of list) add(`local.${name}`, carrier);
  for (const [name, list] of scope.vars) for (const carrier of list) add(`var.${name}`, carrier);
  for (const [call, outputs] of scope.modules)
    for (const [output, list] of outputs) for (const carrier of list) add(`module.${call}`, carrier, [output]);
}

/**
 * A module folder's uses, and its local child modules' with the outputs its arguments pass them;
 * returns the carriers of its own `output` blocks (a module that reads a state and outputs it whole).
 */
function scopeUses(
  workspace: ContractWorkspace,
  reader: string,
  dir: string,
  vars: Carriers,
  stack: readonly string[],
  reads: NodeReads,
  module = '',
): Carriers {
  const scanned = workspace.dirOf(dir);
  if (!scanned || stack.length > MAX_DEPTH || stack.includes(dir)) return new Map();
  const references: FileReference[] = [];
  const calls: ModuleCall[] = [];
  for (const file of scanned.tfFiles) {
    const facts = workspace.factsOf(file);
    if (!facts) continue;
    for (const reference of facts.outputReferences) references.push({ file, reference });
    for (const call of facts.moduleCalls) calls.push(call);
  }
  const scope: Scope = { dir, module, locals: new Map(), vars, modules: new Map() };
  if (calls.length === 0) {
    const { outputs } = carriersOf(references, scope);
    usesOf(workspace, reader, references, scope, reads);
    carried(scope, reads);
    return outputs;
  }
  // The arguments first (what the children get), then the children (what their outputs carry), then the
  // carriers again with those, and the uses.
  const { moduleArgs } = carriersOf(references, scope);
  for (const call of calls) {
    const source = localSource(call.source);
    if (source === undefined) continue;
    const childDir = path.resolve(dir, source);
    const args = moduleArgs.get(call.name) ?? new Map();
    const prefix = module ? `${module}.module.${call.name}` : `module.${call.name}`;
    scope.modules.set(call.name, scopeUses(workspace, reader, childDir, args, [...stack, dir], reads, prefix));
  }
  scope.locals = new Map();
  const { outputs } = carriersOf(references, scope);
  usesOf(workspace, reader, references, scope, reads);
  carried(scope, reads);
  return outputs;
}

/** The uses in a unit's or a Stack's own files (no module calls), locals followed. */
function fileScopeUses(
  workspace: ContractWorkspace,
  reader: string,
  dir: string,
  files: readonly string[],
  reads: NodeReads,
): void {
  const references = referencesIn(workspace, files);
  const scope: Scope = { dir, module: '', locals: new Map(), vars: new Map(), modules: new Map() };
  carriersOf(references, scope);
  usesOf(workspace, reader, references, scope, reads);
  carried(scope, reads);
}

interface FileReference {
  file: string;
  reference: OutputReference;
}

function referencesIn(workspace: ContractWorkspace, files: readonly string[]): FileReference[] {
  const found: FileReference[] = [];
  for (const file of files) {
    const facts = workspace.factsOf(file);
    const references = facts?.terragrunt ? terragruntReferences(facts.terragrunt) : (facts?.outputReferences ?? []);
    for (const reference of references) found.push({ file, reference });
  }
  return found;
}

/**
 * The locals (into `scope.locals`), module arguments and `output` blocks that carry a state or its
 * outputs: a local may carry what another local carries, in any file, in any order.
 */
function carriersOf(
  references: readonly FileReference[],
  scope: Scope,
): { moduleArgs: Map<string, Carriers>; outputs: Carriers } {
  const moduleArgs = new Map<string, Carriers>();
  const outputs: Carriers = new Map();
  for (let round = 0; round < MAX_ROUNDS; round++) {
    let added = false;
    for (const { reference } of references) {
      const binding = reference.binding;
      if (!binding) continue;
      for (const reached of reach(reference, scope)) {
        if (reached.at === 'output') continue;
        const carrier: Carrier = { at: binding.at, holds: reached.at, source: reached.source };
        const [target, name] =
          binding.to === 'module'
            ? [mapGet(moduleArgs, binding.module, (): Carriers => new Map()), binding.argument]
            : [binding.to === 'local' ? scope.locals : outputs, binding.name];
        if (addCarrier(target, name, carrier)) added = true;
      }
    }
    if (!added) break;
  }
  return { moduleArgs, outputs };
}

function usesOf(
  workspace: ContractWorkspace,
  reader: string,
  references: readonly FileReference[],
  scope: Scope,
  reads: NodeReads,
): void {
  for (const { file, reference } of references) {
    for (const reached of reach(reference, scope)) {
      if (reached.at !== 'output') {
        // One that a local, an argument or an output holds is a carrier, whose reads are followed.
        if (!reference.binding) reads.whole.push(wholeRead(reader, file, reference, reached, scope.module));
        continue;
      }
      const key = reached.key;
      const output = key.kind === 'name' ? key.name : undefined;
      const defaulted = key.kind === 'name' && key.defaulted === true;
      reads.uses.push({
        reader,
        file,
        range: key.range,
        quoted: key.kind === 'name' && key.quoted === true,
        source: reached.source,
        output,
        through: reached.through,
        defaulted: defaulted || (output !== undefined && defaultedOutputs(workspace, reached.source).has(output)),
        guard: reference.guard,
        inModule: scope.module,
      });
    }
  }
}

/** A reference that reads a state, or its outputs, whole. */
function wholeRead(
  reader: string,
  file: string,
  reference: OutputReference,
  reached: Reached,
  inModule: string,
): OutputUse {
  return {
    reader,
    file,
    range: reference.range,
    quoted: false,
    source: reached.source,
    output: undefined,
    through: reached.through,
    defaulted: false,
    guard: reference.guard,
    inModule,
  };
}

function addCarrier(carriers: Carriers, name: string, carrier: Carrier): boolean {
  const list = mapGet(carriers, name, () => []);
  if (list.some((other) => sameCarrier(other, carrier))) return false;
  list.push(carrier);
  return true;
}

function sameCarrier(a: Carrier, b: Carrier): boolean {
  return (
    a.holds === b.holds &&
    a.at.join('\0') === b.at.join('\0') &&
    a.source.via === b.source.via &&
    a.source.name === b.source.name &&
    a.source.dir === b.source.dir &&
    a.source.instance === b.source.instance &&
    a.source.module === b.source.module
  );
}

function mapGet<K, V>(map: Map<K, V>, key: K, make: () => V): V {
  let value = map.get(key);
  if (value === undefined) {
    value = make();
    map.set(key, value);
  }
  return value;
}
