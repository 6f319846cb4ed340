import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { seededRandom } from '../seededRandom';

/**
 * A Terragrunt live repository of real shape, the same for the same seed: `live/<environment>/<region>/…`
 * in six areas (three accounts, two regions each), units four to seven folders deep. Every unit
 * includes the one `root.hcl` (S3 remote_state keyed by the unit's path, a generated provider),
 * runs a module of a remote Git repository (never fetched), reads its environment's `common.hcl`,
 * and depends on three or four earlier units by relative `config_path`: mostly in its own area,
 * some on other areas' network and IAM units. Units share last folder names across areas (`vpc`,
 * `eks`, `rds`, `iam`, `common`, …), as in real live repositories.
 */
export interface TerragruntLiveOptions {
  /** How many units; 300 by default. */
  units?: number;
  seed?: number;
}

export interface TerragruntLive {
  /** The unit folders relative to the repository root, `/`-separated, in generation order. */
  units: string[];
  /** How many `dependency` blocks the units declare: one graph edge each. */
  dependencies: number;
}

interface Area {
  environment: string;
  region: string;
  /** The area's share of the units: production holds more than dev. */
  weight: number;
}

const AREAS: readonly Area[] = [
  { environment: 'prod', region: 'us-east-1', weight: 1.3 },
  { environment: 'prod', region: 'eu-west-1', weight: 1.2 },
  { environment: 'stage', region: 'us-east-1', weight: 1.0 },
  { environment: 'stage', region: 'eu-west-1', weight: 0.9 },
  { environment: 'dev', region: 'us-east-1', weight: 0.9 },
  { environment: 'dev', region: 'eu-west-1', weight: 0.7 },
];

const ACCOUNT_IDS: Record<string, string> = { prod: '111111111111', stage: '222222222222', dev: '333333333333' };
/** Newer module versions reach dev first, as releases are promoted. */
const MODULE_REFS: Record<string, string> = { prod: 'v1.2.3', stage: 'v1.3.0', dev: 'v1.4.0' };
const MODULES_REPO = 'git::https://github.com/acme/infrastructure-modules.git';

/** A module of the remote modules repository: its path there and the output its dependents read. */
interface ModuleKind {
  source: string;
  output: string;
  /** Literal inputs the unit sets, besides those from its dependencies. */
  settings?: Record<string, string>;
}

const MODULES = {
  common: { source: 'foundation/common', output: 'alerts_topic_arn' },
  iam: { source: 'security/iam-roles', output: 'role_arn' },
  kms: { source: 'security/kms', output: 'key_arn', settings: { deletion_window_in_days: '30' } },
  vpc: { source: 'networking/vpc', output: 'vpc_id', settings: { num_nat_gateways: '3' } },
  'nat-gateway': { source: 'networking/nat-gateway', output: 'nat_gateway_ids' },
  route53: { source: 'networking/route53-zone', output: 'zone_id' },
  'transit-gateway': { source: 'networking/transit-gateway', output: 'transit_gateway_id' },
  acm: { source: 'security/acm-certificate', output: 'certificate_arn' },
  waf: { source: 'security/waf', output: 'web_acl_arn' },
  guardduty: { source: 'security/guardduty', output: 'detector_id' },
  ecr: { source: 'containers/ecr', output: 'repository_url' },
  eks: { source: 'containers/eks-cluster', output: 'cluster_name', settings: { cluster_version: '"1.29"' } },
  bastion: { source: 'mgmt/bastion-host', output: 'security_group_id', settings: { instance_type: '"t3.micro"' } },
  karpenter: { source: 'containers/eks-karpenter', output: 'node_role_arn' },
  'cert-manager': { source: 'containers/eks-cert-manager', output: 'cluster_issuer' },
  'external-dns': { source: 'containers/eks-external-dns', output: 'service_account_name' },
  rds: { source: 'data-stores/rds', output: 'endpoint', settings: { engine_version: '"15.5"', storage_gb: '100' } },
  elasticache: { source: 'data-stores/redis', output: 'primary_endpoint' },
  'service-iam': { source: 'security/iam-service-role', output: 'service_role_arn' },
  sqs: { source: 'messaging/sqs', output: 'queue_url' },
  alb: { source: 'networking/alb', output: 'target_group_arn' },
  'k8s-service': { source: 'services/k8s-service', output: 'service_url', settings: { replicas: '3' } },
} satisfies Record<string, ModuleKind>;
type Kind = keyof typeof MODULES;

/** A unit's place in its area: its path there, its module, and the paths there it needs first. */
type Slot = [local: string, kind: Kind, needs: string[]];

/** What every area runs, in the order it is built. */
const FOUNDATION: readonly Slot[] = [
  ['common', 'common', []],
  ['iam', 'iam', ['common']],
  ['kms', 'kms', ['iam', 'common']],
  ['network/vpc', 'vpc', ['common', 'kms']],
  ['network/nat-gateway', 'nat-gateway', ['network/vpc']],
  ['network/route53', 'route53', ['network/vpc']],
  ['network/transit-gateway', 'transit-gateway', ['network/vpc', 'iam']],
  ['security/acm', 'acm', ['network/route53']],
  ['security/waf', 'waf', ['security/acm']],
  ['security/guardduty', 'guardduty', ['kms', 'iam']],
  ['platform/ecr', 'ecr', ['kms', 'iam']],
  ['platform/eks', 'eks', ['network/vpc', 'iam', 'kms']],
  ['platform/bastion', 'bastion', ['network/vpc', 'iam']],
  ['platform/eks-addons/karpenter', 'karpenter', ['platform/eks', 'iam']],
  ['platform/eks-addons/cert-manager', 'cert-manager', ['platform/eks', 'security/acm']],
  ['platform/eks-addons/external-dns', 'external-dns', ['platform/eks', 'network/route53']],
];

const DATABASES = ['orders', 'users', 'billing', 'catalog', 'search', 'sessions', 'analytics', 'inventory'];
const SERVICES: readonly { team: string; service: string }[] = [
  ['payments', ['checkout', 'invoices', 'refunds']],
  ['storefront', ['web', 'api', 'search']],
  ['identity', ['auth', 'profiles']],
  ['fulfilment', ['shipping', 'stock', 'returns']],
  ['insights', ['reports', 'events']],
].flatMap(([team, services]) => (services as string[]).map((service) => ({ team: team as string, service })));

/** Same-area units any unit may also depend on: "everything depends on the network". */
const AREA_WIDE = new Set(['common', 'iam', 'kms', 'network/vpc', 'network/nat-gateway', 'network/route53']);
/**
 * Units of other areas a unit may depend on: the hub area's (the first) network, DNS and roles, and
 * for peering, the VPC of its environment's first region. Not any earlier area: stage waits on
 * the hub, not on every area built before it, so the levels stay as few as in real repositories.
 */
const HUB_UNITS = new Set(['common', 'iam', 'network/vpc', 'network/route53', 'network/transit-gateway']);
const PEERED_UNIT = 'network/vpc';
/** How often a unit has a fourth dependency: about 1,000 blocks for 300 units. */
const FOURTH_DEPENDENCY = 0.4;
/** How often a dependency beyond what the unit needs is on another area. */
const CROSS_SHARE = 0.25;
const MOCKED_OUTPUTS = 0.35;

interface PlannedUnit {
  id: string;
  area: number;
  /** The path inside its area: `network/vpc`. */
  local: string;
  kind: Kind;
  needs: string[];
}

interface Dependency {
  name: string;
  target: PlannedUnit;
  input: string;
  mocked: boolean;
}

export function writeTerragruntLive(dir: string, options: TerragruntLiveOptions = {}): TerragruntLive {
  const rand = seededRandom(options.seed ?? 1);
  const quotas = areaQuotas(options.units ?? 300);
  const planned = AREAS.flatMap((_, area) =>
    areaSlots(quotas[area]!, rand).map(([local, kind, needs]) => ({
      id: `${areaPath(area)}/${local}`,
      area,
      local,
      kind,
      needs,
    })),
  );
  const write = (file: string, text: string) => {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  };
  writeSharedFiles(write);
  let dependencies = 0;
  const earlier = new Map<string, PlannedUnit>();
  const pools: Pools = { byArea: AREAS.map(() => []), crossArea: AREAS.map(() => []) };
  for (const unit of planned) {
    const blocks = dependencyBlocks(unit, chooseTargets(unit, earlier, pools, rand), rand);
    write(`${unit.id}/terragrunt.hcl`, unitFile(unit, blocks));
    dependencies += blocks.length;
    earlier.set(unit.id, unit);
    addToPools(pools, unit);
  }
  return { units: planned.map((unit) => unit.id), dependencies };
}

/** The earlier units each area may depend on besides what its units need: its own, and other areas'. */
interface Pools {
  byArea: PlannedUnit[][];
  crossArea: PlannedUnit[][];
}

function addToPools(pools: Pools, unit: PlannedUnit): void {
  if (AREA_WIDE.has(unit.local)) pools.byArea[unit.area]!.push(unit);
  AREAS.forEach((area, n) => {
    if (n === unit.area) return;
    const hub = unit.area === 0 && HUB_UNITS.has(unit.local);
    const peer = unit.local === PEERED_UNIT && unit.area === firstRegionOf(area.environment);
    if (hub || peer) pools.crossArea[n]!.push(unit);
  });
}

function firstRegionOf(environment: string): number {
  return AREAS.findIndex((area) => area.environment === environment);
}

function areaPath(area: number): string {
  return `live/${AREAS[area]!.environment}/${AREAS[area]!.region}`;
}

/** Each area's number of units, by weight, summing to `units` exactly (largest remainders). */
function areaQuotas(units: number): number[] {
  const total = AREAS.reduce((sum, area) => sum + area.weight, 0);
  const exact = AREAS.map((area) => (units * area.weight) / total);
  const quotas = exact.map(Math.floor);
  const byRemainder = AREAS.map((_, n) => n).sort((a, b) => exact[b]! - quotas[b]! - (exact[a]! - quotas[a]!) || a - b);
  const missing = units - quotas.reduce((sum, n) => sum + n, 0);
  for (let k = 0; k < missing; k++) quotas[byRemainder[k]!]!++;
  return quotas;
}

/** The foundation, then databases and services in a shuffled order until the quota is reached. */
function areaSlots(quota: number, rand: () => number): Slot[] {
  const slots = [...FOUNDATION];
  const services = shuffled(SERVICES, rand);
  const databases = shuffled(DATABASES, rand);
  const written = new Set<string>();
  // Later rounds add second instances (`checkout-2`), so any quota can be met.
  for (let round = 0; slots.length < quota; round++) {
    const suffix = round === 0 ? '' : `-${round + 1}`;
    services.forEach(({ team, service }, n) => {
      // Fewer databases than services: some services share one.
      const database = `${databases[n % databases.length]}${suffix}`;
      if (!written.has(database)) slots.push(...databaseSlots(database, rand));
      written.add(database);
      slots.push(...serviceSlots(`apps/${team}/${service}${suffix}`, database, rand));
    });
  }
  return slots.slice(0, quota);
}

function databaseSlots(database: string, rand: () => number): Slot[] {
  const slots: Slot[] = [[`data/${database}/rds`, 'rds', ['network/vpc', 'kms', 'security/guardduty']]];
  if (rand() < 0.5) slots.push([`data/${database}/elasticache`, 'elasticache', ['network/vpc', 'kms']]);
  return slots;
}

/** A service's own role, perhaps a queue and a load balancer, then the service that needs them. */
function serviceSlots(folder: string, database: string, rand: () => number): Slot[] {
  const slots: Slot[] = [[`${folder}/iam`, 'service-iam', ['iam', 'kms']]];
  if (rand() < 0.6) slots.push([`${folder}/sqs`, 'sqs', [`${folder}/iam`, 'kms']]);
  if (rand() < 0.4) slots.push([`${folder}/alb`, 'alb', ['network/vpc', 'security/acm', 'security/waf']]);
  const own = slots.map(([local]) => local);
  slots.push([`${folder}/k8s-service`, 'k8s-service', ['platform/eks', `data/${database}/rds`, ...own]]);
  return slots;
}

function shuffled<T>(items: readonly T[], rand: () => number): T[] {
  const copy = [...items];
  for (let n = copy.length - 1; n > 0; n--) {
    const k = Math.floor(rand() * (n + 1));
    [copy[n], copy[k]] = [copy[k]!, copy[n]!];
  }
  return copy;
}

/** Three or four earlier units: what the unit needs, then area-wide units, some of other areas. */
function chooseTargets(
  unit: PlannedUnit,
  earlier: ReadonlyMap<string, PlannedUnit>,
  pools: Pools,
  rand: () => number,
): PlannedUnit[] {
  const wanted = rand() < FOURTH_DEPENDENCY ? 4 : 3;
  const chosen: PlannedUnit[] = [];
  for (const need of unit.needs) {
    const target = earlier.get(`${areaPath(unit.area)}/${need}`);
    if (target && chosen.length < wanted && !chosen.includes(target)) chosen.push(target);
  }
  const open = (pool: readonly PlannedUnit[]) => pool.filter((target) => !chosen.includes(target));
  while (chosen.length < wanted) {
    const sameArea = open(pools.byArea[unit.area]!);
    const crossArea = open(pools.crossArea[unit.area]!);
    const pool = sameArea.length === 0 || (rand() < CROSS_SHARE && crossArea.length > 0) ? crossArea : sameArea;
    if (pool.length === 0) break;
    chosen.push(pool[Math.floor(rand() * pool.length)]!);
  }
  return chosen;
}

/** Block and input names as people write them: the target's folder, qualified when it would clash. */
function dependencyBlocks(unit: PlannedUnit, targets: readonly PlannedUnit[], rand: () => number): Dependency[] {
  const names = new Set<string>();
  const inputs = new Set<string>();
  return targets.map((target) => {
    const last = identifier(path.posix.basename(target.local));
    const qualifier = qualifierOf(unit, target, names.has(last));
    const name = unique(qualifier ? `${qualifier}_${last}` : last, names);
    const output = MODULES[target.kind].output;
    const input = unique(qualifier ? `${qualifier}_${output}` : output, inputs);
    return { name, target, input, mocked: rand() < MOCKED_OUTPUTS };
  });
}

/** Another area's unit is named by its area; a clash in the same area by the target's parent folder. */
function qualifierOf(unit: PlannedUnit, target: PlannedUnit, clashes: boolean): string {
  if (target.area !== unit.area) return `${AREAS[target.area]!.environment}_${regionCode(target.area)}`;
  if (!clashes) return '';
  const parent = path.posix.dirname(target.local);
  return parent === '.' ? 'account' : identifier(path.posix.basename(parent));
}

function identifier(folder: string): string {
  return folder.replace(/-/g, '_');
}

/** `us-east-1` → `use1`. */
function regionCode(area: number): string {
  const [geo, direction, n] = AREAS[area]!.region.split('-');
  return `${geo}${direction![0]}${n}`;
}

function unique(name: string, taken: Set<string>): string {
  let candidate = name;
  for (let n = 2; taken.has(candidate); n++) candidate = `${name}_${n}`;
  taken.add(candidate);
  return candidate;
}

function unitFile(unit: PlannedUnit, dependencies: readonly Dependency[]): string {
  const module = MODULES[unit.kind] as ModuleKind;
  const environment = AREAS[unit.area]!.environment;
  const inputs: [string, string][] = [
    ['name', 'local.name'],
    ['tags', 'local.common.locals.tags'],
    ...dependencies.map((d): [string, string] => [
      d.input,
      `dependency.${d.name}.outputs.${MODULES[d.target.kind].output}`,
    ]),
    ...Object.entries(module.settings ?? {}),
  ];
  return [
    'include "root" {\n  path = find_in_parent_folders("root.hcl")\n}\n',
    `terraform {\n  source = "${MODULES_REPO}//${module.source}?ref=${MODULE_REFS[environment]}"\n}\n`,
    'locals {',
    '  common      = read_terragrunt_config(find_in_parent_folders("common.hcl"))',
    '  environment = local.common.locals.environment',
    `  name        = "\${local.environment}-${path.posix.basename(unit.local)}"`,
    '}\n',
    ...dependencies.map((d) => dependencyBlock(unit, d)),
    `inputs = {\n${aligned(inputs, '  ')}\n}\n`,
  ].join('\n');
}

function dependencyBlock(unit: PlannedUnit, dependency: Dependency): string {
  const configPath = path.posix.relative(unit.id, dependency.target.id);
  const lines = [`dependency "${dependency.name}" {`, `  config_path = "${configPath}"`];
  if (dependency.mocked) {
    // Lets `plan` run before the dependency has been applied, as real live repositories do.
    const output = MODULES[dependency.target.kind].output;
    lines.push(
      '',
      '  mock_outputs = {',
      `    ${output} = "mock-${path.posix.basename(dependency.target.local)}"`,
      '  }',
      '  mock_outputs_allowed_terraform_commands = ["init", "validate", "plan"]',
    );
  }
  return `${lines.join('\n')}\n}\n`;
}

/** `key = value` lines with the equals signs lined up, as `terragrunt hclfmt` writes them. */
function aligned(pairs: readonly [string, string][], indent: string): string {
  const width = Math.max(...pairs.map(([key]) => key.length));
  return pairs.map(([key, value]) => `${indent}${key.padEnd(width)} = ${value}`).join('\n');
}

/** The root configuration every unit includes, and the environment and region files it reads. */
function writeSharedFiles(write: (file: string, text: string) => void): void {
  write('root.hcl', ROOT_HCL);
  write('README.md', README);
  write('.gitignore', '.terragrunt-cache/\n.terraform/\n');
  for (const environment of new Set(AREAS.map((area) => area.environment)))
    write(`live/${environment}/common.hcl`, commonHcl(environment));
  AREAS.forEach((area, n) => {
    write(`${areaPath(n)}/region.hcl`, `locals {\n  aws_region = "${area.region}"\n}\n`);
  });
}

function commonHcl(environment: string): string {
  return `# Read by root.hcl and by every unit of the ${environment} account.
locals {
  environment    = "${environment}"
  account_name   = "acme-${environment}"
  aws_account_id = "${ACCOUNT_IDS[environment]}"

  tags = {
    Environment = "${environment}"
    ManagedBy   = "terragrunt"
    Repository  = "infrastructure-live"
  }
}
`;
}

const ROOT_HCL = `# Included by every unit: the state bucket of its account and region, keyed by the unit's folder.
locals {
  common = read_terragrunt_config(find_in_parent_folders("common.hcl"))
  region = read_terragrunt_config(find_in_parent_folders("region.hcl"))

  account_name = local.common.locals.account_name
  account_id   = local.common.locals.aws_account_id
  aws_region   = local.region.locals.aws_region
}

generate "provider" {
  path      = "provider.tf"
  if_exists = "overwrite_terragrunt"
  contents  = <<EOF
provider "aws" {
  region              = "\${local.aws_region}"
  allowed_account_ids = ["\${local.account_id}"]
}
EOF
}

remote_state {
  backend = "s3"
  config = {
    encrypt        = true
    bucket         = "\${local.account_name}-terraform-state-\${local.aws_region}"
    key            = "\${path_relative_to_include()}/terraform.tfstate"
    region         = local.aws_region
    dynamodb_table = "terraform-locks"
  }
  generate = {
    path      = "backend.tf"
    if_exists = "overwrite_terragrunt"
  }
}

inputs = merge(local.common.locals, local.region.locals)
`;

const README = `# infrastructure-live (generated)

Terragrunt units under \`live/<environment>/<region>/\`, generated by Terrace's tests
(\`test/realShapes/terragruntLive.ts\`). Every unit includes \`root.hcl\`, runs a module of a
remote repository and depends on earlier units through \`dependency\` blocks.
`;
