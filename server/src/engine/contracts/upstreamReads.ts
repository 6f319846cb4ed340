import path from 'node:path';
import type { MatchedEdge } from '../state';
import { edgeKey, type OutputContracts, sameInstance, useKey } from './outputContracts';
import type { StateSource } from './referenceReach';

/**
 * What a node reads of one node it depends on: the outputs its reads name; `all` of them (it reads them whole);
 * or `unknown`: a read whose output names are not known (a key computed at run time, a state whose use is not seen).
 */
export type UpstreamRead = ReadonlySet<string> | 'all' | 'unknown';

/**
 * What each node reads of each node it depends on, by reader then writer: for a plan that decides each dependent
 * from the outputs it reads. Soundness before savings: it reads `all` through a reference to the outputs whole,
 * or outputs a local, a variable or a child module holds whole (what is done with them is not followed to the
 * end); `unknown` through a read whose name is known only at run time, or a state read that no read of an output
 * names (what it does with the state is not seen). A Terragrunt `dependencies` path reads nothing: it only orders.
 */
export function upstreamReads(
  contracts: OutputContracts,
  edges: readonly MatchedEdge[],
): Map<string, Map<string, UpstreamRead>> {
  const along = new Map<string, UpstreamRead>();
  const add = (key: string, read: UpstreamRead) => {
    const before = along.get(key);
    along.set(key, before === undefined ? read : merged(before, read));
  };
  for (const use of contracts.uses)
    for (const writer of use.writers)
      add(useKey(use, writer.id), use.output === undefined ? 'unknown' : new Set([use.output]));
  for (const use of contracts.whole) for (const writer of use.writers) add(useKey(use, writer.id), 'all');
  const reads = new Map<string, Map<string, UpstreamRead>>();
  for (const edge of edges) {
    const read = carriedWhole(contracts, edge)
      ? 'all'
      : (along.get(edgeKey(edge)) ?? (edge.reference.block === 'dependencies' ? new Set<string>() : 'unknown'));
    let byWriter = reads.get(edge.from);
    if (!byWriter) {
      byWriter = new Map();
      reads.set(edge.from, byWriter);
    }
    const before = byWriter.get(edge.to);
    byWriter.set(edge.to, before === undefined ? read : merged(before, read));
  }
  return reads;
}

/** Two reads of one writer as one: not known when either is not, every output when either reads them all. */
function merged(a: UpstreamRead, b: UpstreamRead): UpstreamRead {
  if (a === 'unknown' || b === 'unknown') return 'unknown';
  if (a === 'all' || b === 'all') return 'all';
  return new Set([...a, ...b]);
}

/** Whether the reader's code holds the outputs the edge reads whole somewhere (a local, a variable, a module output). */
function carriedWhole(contracts: OutputContracts, edge: MatchedEdge): boolean {
  return contracts.carried.some(({ source }) => readsThrough(edge, source));
}

/** Whether an edge's read is the block a source names. */
function readsThrough(edge: MatchedEdge, source: StateSource): boolean {
  const { reference } = edge;
  if (source.via === 'component') return false;
  if (source.via === 'dependency' ? reference.block !== 'dependency' : reference.block !== undefined) return false;
  if (reference.name !== source.name) return false;
  if (source.via === 'remote-state' && path.dirname(reference.file) !== source.dir) return false;
  return sameInstance(reference.instance, source);
}
