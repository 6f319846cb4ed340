import { loadWorkspace } from '../../server/src/engine/analysis';
import { loadAnalysisOptions } from '../../server/src/engine/config';
import { toEdgeOutputs, toGraphModel } from '../../server/src/languageServer/graphModel';
import type { GraphEdge, GraphModel, GraphModule } from '../../server/src/protocol';
import { seededRandom } from '../seededRandom';

/** Graph models for the webview tests: small hand-made ones, a synthetic big one, and a real example's. */

const range = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };

/** A module; `level` is where the engine files it, a level only when it is neither in nor behind a cycle. */
export function module(id: string, level: number, inCycle = false, waitsForCycle = false): GraphModule {
  const parts = id.split('/');
  const segments: Record<string, string> =
    parts.length === 4 ? { service: parts[0]!, environment: parts[1]!, region: parts[2]!, module: parts[3]! } : {};
  return {
    id,
    uri: `file:///repo/${id}`,
    kind: 'module',
    level,
    segments,
    backend: { type: 's3', address: `s3://acme-state/${id}/terraform.tfstate` },
    location: { uri: `file:///repo/${id}/main.tf`, range },
    inCycle,
    ...(waitsForCycle ? { waitsForCycle } : {}),
    parses: true,
  };
}

export function edge(from: string, to: string, inCycle = false): GraphEdge {
  return {
    from,
    to,
    location: { uri: `file:///repo/${from}/main.tf`, range },
    name: to.split('/').at(-1) ?? to,
    instance: null,
    address: `s3://acme-state/${to}/terraform.tfstate`,
    matchedBy: 'backend-address',
    match: 'exact',
    assumed: {},
    inCycle,
  };
}

export const VPC = 'network/prod/eu-west-1/vpc';
export const DNS = 'network/prod/eu-west-1/dns';
export const EKS = 'platform/prod/eu-west-1/eks';
export const RDS = 'platform/prod/eu-west-1/rds';
export const API = 'app/prod/eu-west-1/api';
export const WORKER = 'app/prod/eu-west-1/worker';

/** The host's answer when rds changed since origin/main: rds, and the api and the worker downstream. */
export const rdsAffected = {
  type: 'affected' as const,
  affected: {
    kind: 'affected' as const,
    baseRef: 'origin/main',
    changed: [RDS],
    affected: [API, RDS, WORKER],
    why: { [RDS]: 'its own file main.tf', [API]: `depends on ${RDS}`, [WORKER]: `depends on ${RDS}` },
  },
};

/**
 * A DAG: vpc and dns at level 0, eks and rds on the vpc, the api on eks, rds and dns, the worker on
 * the api and rds. The worker has an unresolved reference.
 */
export const dag: GraphModel = {
  root: '/repo',
  version: 1,
  modules: [module(VPC, 0), module(DNS, 0), module(EKS, 1), module(RDS, 1), module(API, 2), module(WORKER, 3)],
  edges: [
    edge(EKS, VPC),
    edge(RDS, VPC),
    edge(API, EKS),
    edge(API, RDS),
    edge(API, DNS),
    edge(WORKER, API),
    edge(WORKER, RDS),
  ],
  levels: [[DNS, VPC], [EKS, RDS], [API], [WORKER]],
  cycles: [],
  unresolved: [
    {
      from: WORKER,
      location: { uri: `file:///repo/${WORKER}/main.tf`, range },
      name: 'queue',
      reason: 'no module writes s3://acme-state/app/prod/eu-west-1/queue/terraform.tfstate',
    },
  ],
  ambiguous: [],
};

/** examples/cycle: vpc → firewall → eks → vpc, and the api on eks, waiting for the cycle: none has a level. */
export const cycle: GraphModel = {
  root: '/repo',
  version: 1,
  modules: [
    module('app/api', 1, false, true),
    module('network/vpc', 0, true),
    module('platform/eks', 0, true),
    module('security/firewall', 0, true),
  ],
  edges: [
    edge('app/api', 'platform/eks'),
    edge('network/vpc', 'security/firewall', true),
    edge('platform/eks', 'network/vpc', true),
    edge('security/firewall', 'platform/eks', true),
  ],
  levels: [['network/vpc', 'platform/eks', 'security/firewall'], ['app/api']],
  cycles: [['network/vpc', 'security/firewall', 'platform/eks', 'network/vpc']],
  unresolved: [],
  ambiguous: [],
};

const SERVICES = ['network', 'platform', 'data', 'app', 'security', 'observability', 'edge', 'billing'];
const ENVIRONMENTS = ['prod', 'stage', 'dev', 'qa'];
const REGIONS = ['eu-central-1', 'eu-west-1', 'us-east-1', 'us-west-2', 'ap-southeast-1'];

/**
 * A synthetic monorepo's graph, the same for the same size: ids like test/bench's synthetic monorepo
 * (`{service}/{environment}/{region}/m0001`), each module reading 1–4 modules generated before it.
 * `stacks` (the default): within its environment, among the last 60 (like real stacks, which build
 * on the layers just below them). `uniform`: any module generated before, as the bench's generator
 * does, which makes long edges across many levels.
 */
export function synthetic(count: number, shape: 'stacks' | 'uniform' = 'stacks', seed = 1): GraphModel {
  const rand = seededRandom(seed);
  const ids: string[] = [];
  for (let i = 0; ids.length < count; i++) {
    const service = SERVICES[i % SERVICES.length]!;
    const environment = ENVIRONMENTS[Math.floor(i / SERVICES.length) % ENVIRONMENTS.length]!;
    const region = REGIONS[Math.floor(i / (SERVICES.length * ENVIRONMENTS.length)) % REGIONS.length]!;
    const index = Math.floor(i / (SERVICES.length * ENVIRONMENTS.length * REGIONS.length));
    ids.push(`${service}/${environment}/${region}/m${String(index).padStart(4, '0')}`);
  }
  const level = new Map<string, number>();
  const edges: GraphEdge[] = [];
  const byEnvironment = new Map<string, string[]>();
  for (const id of ids) {
    const environment = shape === 'stacks' ? id.split('/')[1]! : '';
    const earlier = byEnvironment.get(environment) ?? [];
    const wanted = earlier.length === 0 ? 0 : 1 + Math.floor(rand() * 4);
    const deps = new Set<string>();
    for (let k = 0; k < wanted * 3 && deps.size < Math.min(wanted, earlier.length); k++) {
      const from = shape === 'stacks' ? Math.max(0, earlier.length - 60) : 0;
      deps.add(earlier[from + Math.floor(rand() * (earlier.length - from))]!);
    }
    let own = 0;
    for (const dep of deps) {
      edges.push(edge(id, dep));
      own = Math.max(own, level.get(dep)! + 1);
    }
    level.set(id, own);
    earlier.push(id);
    byEnvironment.set(environment, earlier);
  }
  const levels: string[][] = [];
  for (const id of ids) {
    const at = level.get(id)!;
    levels[at] ??= [];
    levels[at]!.push(id);
  }
  return {
    root: '/synthetic',
    version: 1,
    modules: ids.map((id) => module(id, level.get(id)!)),
    edges,
    levels: levels.map((list) => list.sort()),
    cycles: [],
    unresolved: [],
    ambiguous: [],
  };
}

const APPLICATION_WORDS = [
  'analytical',
  'platform',
  'court',
  'data',
  'ingestion',
  'probation',
  'prison',
  'digital',
  'property',
  'migration',
  'engineering',
  'enablement',
  'management',
  'system',
  'reporting',
  'tribunal',
  'workspaces',
  'producer',
  'portal',
  'hub',
  'api',
  'case',
  'legal',
  'aid',
  'shared',
  'services',
  'next',
  'poc',
];

/**
 * A platform repository of many applications, as a real one of 172 roots lays them out
 * (`environments/<application>` for most, `environments/<application>/<component>` for a few with several),
 * their names long and lowercase: no panel shows it whole at readable titles, so its first view folds its
 * folders at the first depth and boxes each module outside a fold in its folder (99 nodes).
 */
export function applications(seed = 1): GraphModel {
  const rand = seededRandom(seed);
  const names = new Set<string>();
  while (names.size < 99) {
    const words = Array.from(
      { length: 2 + Math.floor(rand() * 3) },
      () => APPLICATION_WORDS[Math.floor(rand() * APPLICATION_WORDS.length)]!,
    );
    names.add(words.join('-'));
  }
  const ids = [...names].flatMap((name, i) =>
    i % 4 === 0
      ? Array.from({ length: 2 + (i % 7) }, (_, k) => `environments/${name}/component-${k}`)
      : [`environments/${name}`],
  );
  // A few applications read another's state.
  const edges = ids.filter((_, i) => i % 40 === 1).map((from, i) => edge(from, ids[i * 3]!));
  const readers = new Set(edges.map((e) => e.from));
  return {
    root: '/platform',
    version: 1,
    modules: ids.map((id) => module(id, readers.has(id) ? 1 : 0)),
    edges,
    levels: [ids.filter((id) => !readers.has(id)).sort(), [...readers].sort()],
    cycles: [],
    unresolved: [],
    ambiguous: [],
  };
}

/** The graph of a folder as the real engine sees it, as the language server sends it to the panel. */
export async function realGraph(folder: string): Promise<GraphModel> {
  return (await realGraphAndOutputs(folder)).graph;
}

/** The same graph, and the outputs read along its edges as the server answers `terrace/edgeOutputs`. */
export async function realGraphAndOutputs(folder: string): Promise<{ graph: GraphModel; outputs: string[][] }> {
  const analysis = await loadWorkspace(folder, await loadAnalysisOptions(folder));
  const result = analysis.result();
  return { graph: toGraphModel(result, 1), outputs: toEdgeOutputs(result, analysis.contracts()) };
}
