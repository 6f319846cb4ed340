import type { OutputReference, PathKey } from '../workspace';

/** How a reader names the state it reads. */
export type StateVia = 'remote-state' | 'dependency' | 'component';

/** The block a use reads through: `data.terraform_remote_state.<name>` declared in `dir`, a unit's `dependency.<name>`, a Stack's `component.<name>`. */
export interface StateSource {
  via: StateVia;
  name: string;
  /** The folder of the block (a root's, a child module's, a unit's, a Stack's). */
  dir: string;
  /** A literal instance key (`["prod"]`, `[0]`); undefined for every instance or none. */
  instance: string | undefined;
  /** The calls that lead to the block's child module from its root (`module.net`, `module.a.module.b`); empty in the root. */
  module: string;
}

/**
 * What a reference holds once its keys are read: a state's object (`data.terraform_remote_state.x`),
 * its outputs (`….outputs`), or one output (`….outputs.vpc_id`) — or nothing known.
 */
export type Reached =
  | { at: 'state' | 'outputs'; source: StateSource; through: string | undefined }
  | { at: 'output'; source: StateSource; through: string | undefined; key: PathKey };

/** A local or variable that holds a state or its outputs, at a path of object keys. */
export interface Carrier {
  at: readonly string[];
  holds: 'state' | 'outputs';
  source: StateSource;
}

export type Carriers = Map<string, Carrier[]>;

export interface Scope {
  dir: string;
  module: string;
  locals: Carriers;
  vars: Carriers;
  /** What each local child module's outputs carry, by call name. */
  modules: Map<string, Carriers>;
}

/** What a reference reaches: a state, its outputs or one output, through the carriers of its local or variable. */
export function reach(reference: OutputReference, scope: Scope): Reached[] {
  const keys = reference.keys;
  switch (reference.root) {
    case 'remote-state':
    case 'component': {
      const [instance, rest] = splitInstance(keys);
      const source: StateSource = {
        via: reference.root,
        name: reference.name,
        dir: scope.dir,
        instance,
        module: scope.module,
      };
      return reachFrom(reference.root === 'component' ? 'outputs' : 'state', rest, source, undefined);
    }
    case 'dependency':
      return reachFrom(
        'state',
        keys,
        { via: 'dependency', name: reference.name, dir: scope.dir, instance: undefined, module: '' },
        undefined,
      );
    case 'local':
    case 'var':
    case 'module': {
      const carriers = carriersNamed(reference, scope);
      const through = `${reference.root}.${reference.name}`;
      return carriers.flatMap((carrier) => {
        if (!startsWith(keys, carrier.at)) return [];
        return reachFrom(carrier.holds, keys.slice(carrier.at.length), carrier.source, through);
      });
    }
  }
}

/** The carriers a `local.<name>`, `var.<name>` or `module.<call>.<output>` reference starts from. */
function carriersNamed(reference: OutputReference, scope: Scope): Carrier[] {
  if (reference.root === 'local') return scope.locals.get(reference.name) ?? [];
  if (reference.root === 'var') return scope.vars.get(reference.name) ?? [];
  const outputs = scope.modules.get(reference.name);
  const first = reference.keys[0];
  if (!outputs || first?.kind !== 'name') return [];
  // `module.<call>.<output>…`: the output's carriers, one key further in.
  return (outputs.get(first.name) ?? []).map((carrier) => ({ ...carrier, at: [first.name, ...carrier.at] }));
}

/** A remote state's or component's instance keys: `[0]`, `["prod"]`, `[each.key]`, `[*]`, before the rest. */
function splitInstance(keys: readonly PathKey[]): [string | undefined, readonly PathKey[]] {
  const first = keys[0];
  if (!first || (first.kind === 'name' && first.name === 'outputs')) return [undefined, keys];
  const isInstance = first.kind !== 'name' || first.quoted === true || isIndex(first.name);
  if (!isInstance) return [undefined, keys];
  return [first.kind === 'name' ? first.name : undefined, keys.slice(1)];
}

function isIndex(name: string): boolean {
  return name !== '' && Number.isInteger(Number(name));
}

function reachFrom(
  holds: 'state' | 'outputs',
  keys: readonly PathKey[],
  source: StateSource,
  through: string | undefined,
): Reached[] {
  let rest = keys;
  if (holds === 'state') {
    const first = rest[0];
    if (!first) return [{ at: 'state', source, through }];
    if (first.kind !== 'name' || first.name !== 'outputs') return [];
    rest = rest.slice(1);
  }
  const key = rest[0];
  if (!key) return [{ at: 'outputs', source, through }];
  if (key.kind === 'splat') return [];
  return [{ at: 'output', source, through, key }];
}

function startsWith(keys: readonly PathKey[], at: readonly string[]): boolean {
  if (keys.length < at.length) return false;
  return at.every((name, i) => {
    const key = keys[i]!;
    return key.kind === 'name' && key.name === name;
  });
}
