import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { seededRandom } from '../seededRandom';

/**
 * A plain Terraform monorepo of real shape on Azure, the same for the same seed: 50 root modules,
 * `subscriptions/<subscription>/<environment>/<name>` and a few under `shared/`, most names found
 * in every subscription and environment (`common`, `virtualnetwork`, `clusters`). Each root keeps
 * its state in its subscription's storage account under the literal key `<its path>.tfstate`, and
 * reads other roots' states with `data "terraform_remote_state"` blocks (`backend = "azurerm"`, the
 * same four keys): mostly in its own subscription and environment, some in the shared hub. Only
 * Terraform's builtin resources (`terraform_data`), so it needs no provider.
 */
export interface PlainSubscriptionsOptions {
  seed?: number;
}

export interface PlainSubscriptions {
  /** The root folders relative to the repository root, `/`-separated, in generation order. */
  roots: string[];
  /** How many remote-state reads the roots make: one graph edge each. */
  edges: number;
}

const SUBSCRIPTIONS = ['sub-a', 'sub-b', 'sub-c'];
const ENVIRONMENTS = ['prod', 'stage', 'dev'];
const LOCATIONS: Record<string, string> = { 'sub-a': 'westeurope', 'sub-b': 'northeurope', 'sub-c': 'westeurope' };

/** A root's name and the names in its own subscription and environment it reads, when present. */
type Slot = [name: string, reads: string[]];

/** In every subscription and environment, in the order they are built. */
const CORE: readonly Slot[] = [
  ['common', []],
  ['virtualnetwork', ['common']],
];
/** Two of these in each subscription and environment, chosen by the seed, before and after the clusters. */
const BEFORE_CLUSTERS: readonly Slot[] = [
  ['keyvault', ['common']],
  ['storage', ['virtualnetwork']],
  ['databases', ['virtualnetwork', 'keyvault']],
];
const CLUSTERS: Slot = ['clusters', ['virtualnetwork', 'keyvault']];
const AFTER_CLUSTERS: readonly Slot[] = [
  ['monitoring', ['clusters']],
  ['appgateway', ['virtualnetwork', 'clusters']],
  ['dns', ['virtualnetwork']],
];
const EXTRAS_PER_ENVIRONMENT = 2;

/** The hub the subscriptions connect to, built first; each with what it reads. */
const SHARED: readonly Slot[] = [
  ['shared/hub/common', []],
  ['shared/hub/virtualnetwork', ['shared/hub/common']],
  ['shared/identity/common', ['shared/hub/common']],
  ['shared/management/common', []],
  ['shared/management/monitoring', ['shared/management/common', 'shared/hub/virtualnetwork']],
];
/** Reads of the hub by name in a subscription: peering, central logs. */
const HUB_READS: Record<string, readonly string[]> = {
  virtualnetwork: ['shared/hub/virtualnetwork'],
  monitoring: ['shared/management/monitoring'],
  dns: ['shared/hub/virtualnetwork'],
};
/** How often a subscription's `common` reads the shared identity (its managed identities). */
const IDENTITY_READ = 0.3;

interface PlannedRoot {
  id: string;
  reads: string[];
}

export function writePlainSubscriptions(dir: string, options: PlainSubscriptionsOptions = {}): PlainSubscriptions {
  const rand = seededRandom(options.seed ?? 1);
  const planned = [
    ...SHARED.map(([id, reads]) => ({ id, reads })),
    ...SUBSCRIPTIONS.flatMap((subscription) =>
      ENVIRONMENTS.flatMap((environment) => environmentRoots(subscription, environment, rand)),
    ),
  ];
  for (const root of planned) writeRoot(dir, root);
  writeFileSync(path.join(dir, 'README.md'), README);
  return { roots: planned.map((root) => root.id), edges: planned.reduce((sum, root) => sum + root.reads.length, 0) };
}

/** The roots of one subscription and environment; reads only of roots built before them. */
function environmentRoots(subscription: string, environment: string, rand: () => number): PlannedRoot[] {
  const folder = `subscriptions/${subscription}/${environment}`;
  const extras = pick([...BEFORE_CLUSTERS, ...AFTER_CLUSTERS], EXTRAS_PER_ENVIRONMENT, rand);
  const slots = [
    ...CORE,
    ...BEFORE_CLUSTERS.filter((slot) => extras.includes(slot)),
    CLUSTERS,
    ...AFTER_CLUSTERS.filter((slot) => extras.includes(slot)),
  ];
  const present = new Set<string>();
  return slots.map(([name, reads]) => {
    const own = reads.filter((read) => present.has(read)).map((read) => `${folder}/${read}`);
    const hub = [...(HUB_READS[name] ?? [])];
    if (name === 'common' && rand() < IDENTITY_READ) hub.push('shared/identity/common');
    present.add(name);
    return { id: `${folder}/${name}`, reads: [...own, ...hub] };
  });
}

function pick<T>(items: readonly T[], count: number, rand: () => number): T[] {
  const left = [...items];
  const picked: T[] = [];
  while (picked.length < count && left.length > 0) picked.push(left.splice(Math.floor(rand() * left.length), 1)[0]!);
  return picked;
}

/** Where a root's state is: its subscription's storage account (the hub's for `shared/`), one container per environment. */
function stateOf(id: string): Record<string, string> {
  const [top, subscription, environment] = id.split('/');
  const owner = top === 'shared' ? 'shared' : subscription!;
  return {
    resource_group_name: `rg-tfstate-${owner}`,
    storage_account_name: `sttfstate${owner.replace(/-/g, '')}`,
    container_name: top === 'shared' ? 'tfstate' : environment!,
    key: `${id}.tfstate`,
  };
}

function writeRoot(dir: string, root: PlannedRoot): void {
  const folder = path.join(dir, root.id);
  mkdirSync(folder, { recursive: true });
  writeFileSync(path.join(folder, 'backend.tf'), backendFile(root.id));
  writeFileSync(path.join(folder, 'variables.tf'), variablesFile(root.id));
  writeFileSync(path.join(folder, 'main.tf'), mainFile(root));
  writeFileSync(path.join(folder, 'outputs.tf'), outputsFile(root.id));
  if (root.reads.length > 0) writeFileSync(path.join(folder, 'remote_state.tf'), remoteStateFile(root));
}

function backendFile(id: string): string {
  return `terraform {
  required_version = ">= 1.6.0"

  backend "azurerm" {
${configLines(stateOf(id), '    ')}
  }
}
`;
}

function configLines(config: Record<string, string>, indent: string): string {
  return Object.entries(config)
    .map(([key, value]) => `${indent}${key.padEnd(20)} = "${value}"`)
    .join('\n');
}

function variablesFile(id: string): string {
  const [top, subscription, environment] = id.split('/');
  const shared = top === 'shared';
  return `variable "location" {
  type        = string
  description = "The Azure region of this root's resources."
  default     = "${shared ? 'westeurope' : LOCATIONS[subscription!]}"
}

variable "environment" {
  type    = string
  default = "${shared ? 'shared' : environment}"
}

variable "tags" {
  type = map(string)
  default = {
    owner      = "cloud-platform"
    managed_by = "terraform"
  }
}
`;
}

/** One builtin resource whose input holds what the root reads, so each read is used. */
function mainFile(root: PlannedRoot): string {
  const name = readName(root.id);
  const input: [string, string][] = [
    ['name', 'local.name'],
    ['location', 'var.location'],
    ['tags', 'local.tags'],
    ...root.reads.map((read): [string, string] => [
      `${readName(read)}_id`,
      `data.terraform_remote_state.${readName(read)}.outputs.id`,
    ]),
  ];
  const width = Math.max(...input.map(([key]) => key.length));
  return `locals {
  name = "\${var.environment}-${name}"
  tags = merge(var.tags, { component = "${name}" })
}

resource "terraform_data" "${name}" {
  input = {
${input.map(([key, value]) => `    ${key.padEnd(width)} = ${value}`).join('\n')}
  }
}
`;
}

function outputsFile(id: string): string {
  const name = readName(id);
  return `output "id" {
  description = "The identifier other roots read from this state."
  value       = terraform_data.${name}.id
}

output "name" {
  value = local.name
}
`;
}

function remoteStateFile(root: PlannedRoot): string {
  return root.reads
    .map(
      (read) => `data "terraform_remote_state" "${readName(read)}" {
  backend = "azurerm"
  config = {
${configLines(stateOf(read), '    ')}
  }
}
`,
    )
    .join('\n');
}

/** A root's name in identifiers: its folder, and for the hub its parent too (`hub_virtualnetwork`). */
function readName(id: string): string {
  const parts = id.split('/');
  const name = parts.at(-1)!;
  return parts[0] === 'shared' ? `${parts.at(-2)}_${name}` : name;
}

const README = `# Azure subscriptions (generated)

Terraform root modules under \`subscriptions/<subscription>/<environment>/\` and \`shared/\`,
generated by Terrace's tests (\`test/realShapes/plainSubscriptions.ts\`). Each keeps its state in
azurerm under the key \`<its path>.tfstate\` and reads others' with \`terraform_remote_state\`.
`;
