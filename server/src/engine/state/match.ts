import {
  type Hole,
  hole,
  holesOf,
  isHole,
  isUnknown,
  type ObjectValue,
  showTemplate,
  type Template,
  type Unknown,
} from '../evaluation';
import type { EvaluatedModule, Reference } from '../workspace';
import { type Binding, unify } from './addressTemplate';
import {
  addressFamily,
  moduleIdFromKey,
  type StateAddress,
  stateAddress,
  type TemplateAddress,
  templateAddress,
  type WorkspaceSpec,
} from './backendAddress';

/**
 * How sure an edge is: `exact` (the reader's address is the writer's, or the path convention names it),
 * `inferred` (parts of the address are known only at run time, and exactly one writer fits what is
 * known), `ambiguous` (several writers fit: an edge to each, since running after all of them is safe).
 */
export type MatchKind = 'exact' | 'inferred' | 'ambiguous';

/** A reference matched to the module that writes its state. */
export interface MatchedEdge {
  from: string;
  to: string;
  reference: Reference;
  /** The address as known: literal, or with `${…}` where a part is known only at run time. */
  address: string;
  /** `dependency`: a Terragrunt unit's `dependency` block or `dependencies` path names the writer's folder. */
  matchedBy: 'backend-address' | 'path-convention' | 'known-text' | 'dependency' | 'component';
  match: MatchKind;
  /** For an inferred or ambiguous edge: what the unknown parts must be for this writer to fit. */
  assumed: readonly Binding[];
  /** For an ambiguous edge: every writer that fits, this one included. */
  candidates: readonly string[];
  /** For an inferred or ambiguous edge: why parts of the address are unknown (`var.stack has no default`). */
  unknowns: readonly string[];
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
  /** For a state nobody writes: the workspace's folders that could not be read, where its writer may be. */
  unreadable?: string[];
  /** A Terragrunt dependency on a folder that holds no unit: an error, terragrunt would fail. */
  missingUnit?: boolean;
  /** A Terragrunt dependency written as Terragrunt refuses it (a single `dependencies` path): an error. */
  refused?: boolean;
  /** A Stack's reference to a component or stack it does not have: an error, the Stack would not validate. */
  missingComponent?: boolean;
}

/** `; the folder app/secrets could not be read, and a module there may write it`, or nothing. */
export function unreadableNote(dirs: readonly string[] | undefined): string {
  if (!dirs?.length) return '';
  const named = dirs.length > 3 ? `${dirs.slice(0, 3).join(', ')} and ${dirs.length - 3} more` : dirs.join(', ');
  return `; ${dirs.length === 1 ? 'the folder' : 'the folders'} ${named} could not be read, and a module there may write it`;
}

/** A state nobody writes may be written from a folder that could not be read: such references say so. */
export function withUnreadableDirs(unresolved: UnmatchedReference[], dirs: string[]): UnmatchedReference[] {
  if (dirs.length === 0) return unresolved;
  return unresolved.map((item) =>
    item.address === undefined ? item : { ...item, reason: `${item.reason}${unreadableNote(dirs)}`, unreadable: dirs },
  );
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

  /**
   * The matches of `module` (a module of the last `matchEach`, evaluated again with other inputs)
   * against the writers of that call. Undefined before any call.
   */
  matchAgainstLast(module: EvaluatedModule): MatchResult | undefined {
    return this.index && matchModule(module, this.index, this.root);
  }

  /** Changes whenever the writers do: results of `matchAgainstLast` hold while it stays the same. */
  get writersVersion(): object | undefined {
    return this.index;
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
  for (const reference of module.references) {
    const unresolved = own.unresolved.length;
    matchOne(module.id, reference, writers, root, own);
    if (own.unresolved.length > unresolved && reference.anyWorkspace) {
      matchInAnyWorkspace(module.id, reference, reference.anyWorkspace, writers, own, unresolved);
    }
  }
  return own;
}

/**
 * A read that finds no writer in the `default` workspace, tried again with `terraform.workspace` unknown
 * (`…/vpc/eks/${terraform.workspace}/terraform.tfstate` is written by the root with that workspace
 * prefix, in whichever workspace both run). Only a match replaces the unresolved entry.
 */
function matchInAnyWorkspace(
  from: string,
  reference: Reference,
  alternative: NonNullable<Reference['anyWorkspace']>,
  writers: WriterIndex,
  own: MatchResult,
  unresolved: number,
): void {
  const { backend } = reference;
  if (isUnknown(backend) || isUnknown(alternative.config)) return;
  const attempt: MatchResult = { edges: [], unresolved: [], ambiguous: [] };
  const reasons = ['terraform.workspace is the workspace selected at run time'];
  if (!matchByKnownText(from, reference, backend, alternative.config, alternative.workspace, writers, attempt, reasons))
    return;
  if (attempt.edges.length === 0) return;
  own.unresolved.length = unresolved;
  own.edges.push(...attempt.edges);
  own.ambiguous.push(...attempt.ambiguous);
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
  if (!isUnknown(backend) && !isUnknown(config) && isUnknown(workspace)) {
    if (matchByKnownText(from, reference, backend, config, workspace, writers, result, workspace.reasons)) return;
  }
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
    if (matchByKnownText(from, reference, backend, config, workspace, writers, result, address.reasons)) return;
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
    result.edges.push(exactEdge(from, byAddress[0]!, reference, address.address, 'backend-address'));
    return;
  }
  if (byAddress.length > 1) {
    pushAmbiguous(
      result,
      from,
      reference,
      address.address,
      byAddress.map((to) => ({ to, assumed: [] })),
      'backend-address',
    );
    return;
  }
  const byConvention =
    address.key === undefined ? undefined : writers.conventionWriter(moduleIdFromKey(address.key), backend);
  if (byConvention) {
    result.edges.push(exactEdge(from, byConvention, reference, address.address, 'path-convention'));
    return;
  }
  // The writer may write it from one of its other workspaces, or through a backend known only in part.
  if (matchByKnownText(from, reference, backend, config, workspace, writers, result, [])) return;
  result.unresolved.push({
    from,
    reference,
    reason: `no module in this workspace writes ${address.address}`,
    address: address.address,
    writers: [],
  });
}

/** The empty list every exact edge shares: a workspace may hold 250,000 edges, and three arrays each add up. */
const NONE: readonly never[] = Object.freeze([]);

function exactEdge(
  from: string,
  to: string,
  reference: Reference,
  address: string,
  matchedBy: MatchedEdge['matchedBy'],
): MatchedEdge {
  return { from, to, reference, address, matchedBy, match: 'exact', assumed: NONE, candidates: NONE, unknowns: NONE };
}

/** Several writers fit: an edge to each (running after all of them is safe), and the reference reported. */
function pushAmbiguous(
  result: MatchResult,
  from: string,
  reference: Reference,
  address: string,
  fits: readonly { to: string; assumed: readonly Binding[] }[],
  matchedBy: MatchedEdge['matchedBy'],
  unknowns: readonly string[] = [],
): void {
  const candidates = fits.map((fit) => fit.to);
  for (const fit of fits) {
    result.edges.push({
      from,
      to: fit.to,
      reference,
      address,
      matchedBy,
      match: 'ambiguous',
      assumed: fit.assumed,
      candidates,
      unknowns,
    });
  }
  result.ambiguous.push({
    from,
    reference,
    reason: `${candidates.length} modules write ${address}: ${candidates.join(', ')}`,
    address,
    writers: candidates,
  });
}

/**
 * Matches a reference whose address is known only in part, or that no writer's known address equals,
 * by unifying its template with every writer's (see addressTemplate.ts). True when it settled the
 * reference: an inferred or ambiguous edge, or unresolved because the known text cannot tell writers apart.
 */
function matchByKnownText(
  from: string,
  reference: Reference,
  type: string,
  config: ObjectValue,
  workspace: string | Unknown,
  writers: WriterIndex,
  result: MatchResult,
  unknownReasons: readonly string[],
): boolean {
  const readers = readerTemplates(type, config, workspace);
  if (readers.length === 0) return false;
  const shown = showTemplate(readers[0]!.template);
  const unknowns = [
    ...new Set(
      unknownReasons.length > 0 ? unknownReasons : holesOf(readers[0]!.template).flatMap((part) => part.reasons),
    ),
  ];
  if (!readers.some((reader) => tellsWritersApart(reader.key))) {
    // A known address nobody writes is reported as such by the caller.
    if (!readers.some((reader) => reader.template.some(isHole))) return false;
    result.unresolved.push({
      from,
      reference,
      reason:
        `the state address cannot be resolved statically: ${unknowns.join('; ')}; ` +
        `its known part \`${showTemplate(readers[0]!.key)}\` is too common to tell which module writes it`,
      address: undefined,
      writers: [],
    });
    return true;
  }
  const fits = writers.fitting(type, readers);
  if (fits.length === 0) return false;
  if (fits.length === 1) {
    const fit = fits[0]!;
    result.edges.push({
      from,
      to: fit.to,
      reference,
      address: shown,
      matchedBy: 'known-text',
      match: 'inferred',
      assumed: fit.assumed,
      candidates: [],
      unknowns,
    });
    return true;
  }
  pushAmbiguous(result, from, reference, shown, fits, 'known-text', unknowns);
  return true;
}

/**
 * Whether the known part of a key can tell one module's state from another's: something besides the
 * names every state shares (`terraform.tfstate`, `default`, `env:`) and separators.
 */
function tellsWritersApart(key: Template): boolean {
  const known = key.filter((part): part is string => typeof part === 'string').join('');
  return known.replace(/terraform\.tfstate|\.tfstate|default|env:|[/._-]/g, '').length > 0;
}

/** The templates of a read: the workspace it names, or, when that is known only at run time, any. */
function readerTemplates(type: string, config: ObjectValue, workspace: string | Unknown): TemplateAddress[] {
  const specs: WorkspaceSpec[] = isUnknown(workspace)
    ? [{ kind: 'default' }, { kind: 'hole', hole: workspaceHole(workspace) }]
    : workspace === 'default'
      ? [{ kind: 'default' }]
      : [{ kind: 'named', name: workspace }];
  return specs.flatMap((spec) => templateAddress(type, config, spec) ?? []);
}

function workspaceHole(workspace: Unknown): Hole {
  const named = workspace.text?.length === 1 && isHole(workspace.text[0]!) ? workspace.text[0] : undefined;
  return hole(named?.hole ?? 'workspace', workspace.reasons, true);
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

  /**
   * Every module with a state that fits one of `readers`, with what the fit assumes (the first reader
   * template a module fits decides). Writers are laid out as templates on first use: each backend
   * configuration in the default workspace and in any other (a `workspace` hole).
   */
  fitting(type: string, readers: readonly TemplateAddress[]): { to: string; assumed: readonly Binding[] }[] {
    const fits = new Map<string, readonly Binding[]>();
    for (const reader of readers) {
      const pieces = textPieces(reader.template);
      for (const writer of this.templatesOf(type)) {
        if (fits.has(writer.id) || !mayFit(pieces, writer.pieces)) continue;
        const bindings = unify(reader.template, writer.template);
        // s3 and azurerm keep the default workspace's state at the key itself, not under `…/default/`.
        if (!bindings || crossed(bindings)) continue;
        if (writer.anyWorkspace && type !== 'gcs' && bindsDefaultWorkspace(bindings)) continue;
        fits.set(writer.id, bindings);
      }
    }
    return [...fits].sort(([a], [b]) => a.localeCompare(b)).map(([to, assumed]) => ({ to, assumed }));
  }

  private templates: Map<string, WriterTemplate[]> | undefined;

  private templatesOf(type: string): readonly WriterTemplate[] {
    if (!this.templates) {
      this.templates = new Map();
      for (const module of this.modules) {
        const backend = module.backend;
        if (!backend) continue;
        const list = this.templates.get(backend.type) ?? [];
        this.templates.set(backend.type, list);
        for (const { config } of backend.configs) {
          if (isUnknown(config)) continue;
          for (const spec of WRITER_WORKSPACES) {
            const address = templateAddress(backend.type, config, spec);
            // A writer whose key is all holes would fit every reader: only the path convention can place it.
            if (!address || !tellsWritersApart(address.key)) continue;
            list.push({
              id: module.id,
              template: address.template,
              pieces: textPieces(address.template),
              anyWorkspace: spec.kind === 'hole',
            });
          }
        }
      }
    }
    return this.templates.get(type) ?? [];
  }

  /**
   * The module a key names by the path convention: the one of that id, or else the one module whose id
   * ends with it (`cache` for `stacks/cache`: CI names stacks by their folder under the repository's).
   */
  conventionWriter(id: string, type: string): string | undefined {
    if (this.partial.get(id) === type) return id;
    if (id === '' || id.startsWith('../')) return undefined;
    const ending = `/${id}`;
    const named = [...this.partial].filter(([writer, writerType]) => writerType === type && writer.endsWith(ending));
    return named.length === 1 ? named[0]![0] : undefined;
  }

  private addresses(module: EvaluatedModule, workspace: string): StateAddress[] {
    return writerAddresses(module, workspace, this.root);
  }
}

/** A writer's state as a template, for matching reads known only in part. */
interface WriterTemplate {
  id: string;
  template: Template;
  /** Its literal texts, for the quick test before unifying (see `mayFit`). */
  pieces: readonly string[];
  /** The template of the states it writes in workspaces other than default. */
  anyWorkspace: boolean;
}

const WRITER_WORKSPACES: readonly WorkspaceSpec[] = [
  { kind: 'default' },
  { kind: 'hole', hole: hole('workspace', ['the workspace is selected at run time'], true) },
];

/**
 * A fit in which holes of both sides take the other side's text (`${var.env}/queue/…` against
 * `shared/dns/${workspace}/…`): each side's known part lands in the other's unknown, so the fit says
 * nothing about the two being one state.
 */
function crossed(bindings: readonly Binding[]): boolean {
  const takes = (side: Binding['side']) =>
    bindings.some((binding) => binding.side === side && binding.value !== undefined);
  return takes('reader') && takes('writer');
}

function bindsDefaultWorkspace(bindings: readonly Binding[]): boolean {
  return bindings.some(
    (binding) => binding.side === 'writer' && binding.hole === 'workspace' && binding.value === 'default',
  );
}

function textPieces(parts: Template): string[] {
  return parts.filter((part): part is string => typeof part === 'string');
}

/**
 * A quick test that lets through every pair that can fit without crossing (see `crossed`): when no
 * writer hole takes reader text, every reader text lies within one writer text, since a hole takes at
 * least one character and so cannot sit inside a text it faces; and the other way round. Most pairs
 * fail both with a few `includes`, before any unifying.
 */
function mayFit(reader: readonly string[], writer: readonly string[]): boolean {
  return within(reader, writer) || within(writer, reader);
}

/** Every text of `parts` lies within one of `wholes`. */
function within(parts: readonly string[], wholes: readonly string[]): boolean {
  return parts.every((part) => wholes.some((whole) => whole.includes(part)));
}

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
