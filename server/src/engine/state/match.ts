import { isUnknown, type ObjectValue } from '../evaluation';
import type { EvaluatedModule, Reference } from '../workspace';
import { addressFamily, moduleIdFromKey, type StateAddress, stateAddress } from './backendAddress';

/** A reference matched to the module that writes its state. */
export interface MatchedEdge {
  from: string;
  to: string;
  reference: Reference;
  address: string;
  matchedBy: 'backend-address' | 'path-convention';
}

/** A reference that leads to no single writer. */
export interface UnmatchedReference {
  from: string;
  reference: Reference;
  /** Why: what was unknown, or which address nobody writes. */
  reason: string;
  address: string | undefined;
  /** For an ambiguous reference: every module that writes the address. */
  writers: string[];
}

export interface MatchResult {
  edges: MatchedEdge[];
  unresolved: UnmatchedReference[];
  ambiguous: UnmatchedReference[];
}

/**
 * Matches every reference to its writer by comparing state addresses (backend type, location
 * fields, key, workspace). The path convention is a fallback only for writers whose own address
 * is not known (a partial backend with no backend file): the key, minus `terraform.tfstate`,
 * names the module.
 *
 * Kept across edits: a module's matches depend on its own references and on the writers'
 * addresses; while no module's backend changed, the writer index and every untouched module's
 * matches are reused, so an edit re-matches only the modules it re-evaluated.
 */
export class ReferenceMatcher {
  private index: WriterIndex | undefined;
  /** The modules and matches of the last call, by position. */
  private lastModules: readonly EvaluatedModule[] = [];
  private lastMatches: readonly MatchResult[] = [];

  constructor(private readonly root: string) {}

  /** Each module's own matches, parallel to `modules`; the same object while a module's matches hold. */
  matchEach(modules: readonly EvaluatedModule[]): MatchResult[] {
    const reuse = this.index !== undefined && sameWriters(this.lastModules, modules);
    const index = reuse && this.index ? this.index : new WriterIndex(modules, this.root);
    const matches: MatchResult[] = new Array(modules.length);
    for (let n = 0; n < modules.length; n++) {
      const module = modules[n]!;
      matches[n] =
        reuse && this.lastModules[n] === module ? this.lastMatches[n]! : matchModule(module, index, this.root);
    }
    this.index = index;
    this.lastModules = modules;
    this.lastMatches = matches;
    return matches;
  }
}

/** True when `after` writes the same states as `before`, module by module. */
function sameWriters(before: readonly EvaluatedModule[], after: readonly EvaluatedModule[]): boolean {
  if (before.length !== after.length) return false;
  for (let n = 0; n < after.length; n++) {
    const was = before[n]!;
    const is = after[n]!;
    if (was !== is && (was.id !== is.id || writerSignature(was) !== writerSignature(is))) return false;
  }
  return true;
}

function matchModule(module: EvaluatedModule, writers: WriterIndex, root: string): MatchResult {
  const own: MatchResult = { edges: [], unresolved: [], ambiguous: [] };
  for (const reference of module.references) matchOne(module.id, reference, writers, root, own);
  return own;
}

/** The matches of several modules as one result, in their order. */
export function mergeMatches(results: readonly MatchResult[]): MatchResult {
  return {
    edges: concat(results, (own) => own.edges),
    unresolved: concat(results, (own) => own.unresolved),
    ambiguous: concat(results, (own) => own.ambiguous),
  };
}

/** The lists `part` picks from each result, end to end: sized first, as this runs over every module after each edit. */
function concat<T>(results: readonly MatchResult[], part: (own: MatchResult) => readonly T[]): T[] {
  let length = 0;
  for (let n = 0; n < results.length; n++) length += part(results[n]!).length;
  const all: T[] = new Array(length);
  let at = 0;
  for (let n = 0; n < results.length; n++) {
    const list = part(results[n]!);
    for (let i = 0; i < list.length; i++) all[at++] = list[i]!;
  }
  return all;
}

/** Everything about a module that decides the states it writes. */
function writerSignature(module: EvaluatedModule): string {
  const backend = module.backend;
  return backend
    ? `${module.dir}|${backend.type}|${JSON.stringify(backend.configs.map(({ config }) => config))}`
    : module.dir;
}

function matchOne(from: string, reference: Reference, writers: WriterIndex, root: string, result: MatchResult): void {
  const { backend, config, workspace } = reference;
  if (isUnknown(backend) || isUnknown(config) || isUnknown(workspace)) {
    const reasons = [backend, config, workspace].filter(isUnknown).flatMap((part) => part.reasons);
    result.unresolved.push({
      from,
      reference,
      reason: `the state address cannot be resolved statically: ${reasons.join('; ')}`,
      address: undefined,
      writers: [],
    });
    return;
  }
  const address = readerAddress(reference, backend, config, workspace, root);
  if (!address.known) {
    result.unresolved.push({
      from,
      reference,
      reason: `the state address cannot be resolved statically: ${address.reasons.join('; ')}`,
      address: undefined,
      writers: [],
    });
    return;
  }
  const byAddress = writers.writersOf(address.address, workspace);
  if (byAddress.length === 1) {
    result.edges.push({ from, to: byAddress[0]!, reference, address: address.address, matchedBy: 'backend-address' });
    return;
  }
  if (byAddress.length > 1) {
    result.ambiguous.push({
      from,
      reference,
      reason: `${byAddress.length} modules write ${address.address}: ${byAddress.join(', ')}`,
      address: address.address,
      writers: byAddress,
    });
    return;
  }
  const byConvention =
    address.key === undefined ? undefined : writers.conventionWriter(moduleIdFromKey(address.key), backend);
  if (byConvention) {
    result.edges.push({ from, to: byConvention, reference, address: address.address, matchedBy: 'path-convention' });
    return;
  }
  result.unresolved.push({
    from,
    reference,
    reason: `no module in this workspace writes ${address.address}`,
    address: address.address,
    writers: [],
  });
}

/** Every module's own state addresses, per workspace (computed when a workspace is first asked for). */
class WriterIndex {
  private readonly byWorkspace = new Map<string, Map<string, string[]>>();
  /** Modules whose backend address is not fully known, by id, with their backend type. */
  private readonly partial = new Map<string, string>();
  /** Writers of a family of addresses (remote workspaces by prefix): the family's start and the module. */
  private readonly families: { start: string; id: string }[] = [];

  constructor(
    private readonly modules: readonly EvaluatedModule[],
    private readonly root: string,
  ) {
    for (const module of modules) {
      if (module.backend && this.addresses(module, 'default').some((address) => !address.known)) {
        this.partial.set(module.id, module.backend.type);
      }
      for (const start of familiesOf(module, root)) this.families.push({ start, id: module.id });
    }
  }

  writersOf(address: string, workspace: string): string[] {
    let index = this.byWorkspace.get(workspace);
    if (!index) {
      index = new Map();
      for (const module of this.modules) {
        for (const own of this.addresses(module, workspace)) {
          if (!own.known) continue;
          const list = index.get(own.address);
          if (!list) index.set(own.address, [module.id]);
          else if (!list.includes(module.id)) list.push(module.id);
        }
      }
      for (const list of index.values()) list.sort();
      this.byWorkspace.set(workspace, index);
    }
    const exact = index.get(address) ?? [];
    const family = this.families.filter(
      ({ start, id }) => address.startsWith(start) && address.length > start.length && !exact.includes(id),
    );
    return family.length === 0 ? exact : [...exact, ...family.map(({ id }) => id)].sort();
  }

  conventionWriter(id: string, type: string): string | undefined {
    const writerType = this.partial.get(id);
    return writerType === type ? id : undefined;
  }

  private addresses(module: EvaluatedModule, workspace: string): StateAddress[] {
    return writerAddresses(module, workspace, this.root);
  }
}

/** The addresses a module writes in `workspace`: one per backend configuration (partial backend files give several). */
/*
 * Addresses depend only on one module's evaluation, which is replaced (not changed) when its files
 * change: they are cached per evaluated module and per reference, so an edit recomputes only the
 * addresses of the module it touched, and matching is a pass of map lookups.
 */
const writerCache = new WeakMap<EvaluatedModule, Map<string, StateAddress[]>>();
const familyCache = new WeakMap<EvaluatedModule, string[]>();
const readerCache = new WeakMap<Reference, StateAddress>();

/** The addresses a module writes in `workspace`: one per backend configuration (partial backend files give several). */
export function writerAddresses(module: EvaluatedModule, workspace: string, root: string): StateAddress[] {
  let byWorkspace = writerCache.get(module);
  if (!byWorkspace) {
    byWorkspace = new Map();
    writerCache.set(module, byWorkspace);
  }
  let addresses = byWorkspace.get(workspace);
  if (!addresses) {
    const backend = module.backend;
    addresses = !backend
      ? []
      : backend.configs.map(({ config }) =>
          isUnknown(config)
            ? { known: false, reasons: [...config.reasons], key: undefined }
            : stateAddress({ type: backend.type, config, workspace, moduleDir: module.dir, root }),
        );
    byWorkspace.set(workspace, addresses);
  }
  return addresses;
}

function familiesOf(module: EvaluatedModule, root: string): string[] {
  let families = familyCache.get(module);
  if (!families) {
    const backend = module.backend;
    families = (backend?.configs ?? []).flatMap(({ config }) => {
      if (!backend || isUnknown(config)) return [];
      const start = addressFamily({ type: backend.type, config, workspace: 'default', moduleDir: module.dir, root });
      return start ? [start] : [];
    });
    familyCache.set(module, families);
  }
  return families;
}

function readerAddress(
  reference: Reference,
  type: string,
  config: ObjectValue,
  workspace: string,
  root: string,
): StateAddress {
  let address = readerCache.get(reference);
  if (!address) {
    address = stateAddress({ type, config, workspace, moduleDir: reference.cwd, root });
    readerCache.set(reference, address);
  }
  return address;
}
