import {
  type Hole,
  hole,
  holesOf,
  isHole,
  isUnknown,
  type ObjectValue,
  showTemplate,
  type Unknown,
} from '../evaluation';
import type { EvaluatedModule, Reference } from '../workspace';
import type { Binding } from './addressTemplate';
import {
  type LocalPlace,
  moduleIdFromKey,
  type StateAddress,
  stateAddress,
  type TemplateAddress,
  templateAddress,
  type WorkspaceSpec,
} from './backendAddress';
import { tellsWritersApart, type WriterIndex } from './writerIndex';

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

/** The matches of one module's references against the writers. */
export function matchModule(module: EvaluatedModule, writers: WriterIndex, root: string): MatchResult {
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
  const readers = readerTemplates(type, config, workspace, { moduleDir: reference.cwd, root: writers.root });
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

/** The templates of a read: the workspace it names, or, when that is known only at run time, any. */
function readerTemplates(
  type: string,
  config: ObjectValue,
  workspace: string | Unknown,
  place: LocalPlace,
): TemplateAddress[] {
  const specs: WorkspaceSpec[] = isUnknown(workspace)
    ? [{ kind: 'default' }, { kind: 'hole', hole: workspaceHole(workspace) }]
    : workspace === 'default'
      ? [{ kind: 'default' }]
      : [{ kind: 'named', name: workspace }];
  return specs.flatMap((spec) => templateAddress(type, config, spec, place) ?? []);
}

function workspaceHole(workspace: Unknown): Hole {
  const named = workspace.text?.length === 1 && isHole(workspace.text[0]!) ? workspace.text[0] : undefined;
  return hole(named?.hole ?? 'workspace', workspace.reasons, true);
}

const readerCache = new WeakMap<Reference, StateAddress>();

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
