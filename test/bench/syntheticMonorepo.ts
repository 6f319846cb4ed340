import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { seededRandom } from '../seededRandom';

/**
 * A synthetic Terraform monorepo for benchmarks, the same for the same seed: `modules` root
 * modules in a `{service}/{environment}/{region}/{module}` layout, five files each of realistic
 * size (backend, variables, resources, outputs, and remote-state reads with interpolated keys,
 * locals and some for_each; the resources read the outputs of the states they read), average
 * out-degree about 2. Every tenth module also reads one output of the first (the `hub`), as a shared
 * network's outputs are read. Every module reads its service's policy outside its folder
 * (`policies/<service>.json`, through `file()`), and every fifth calls a shared child module
 * (`modules/labels`) that reads a file of its own: what a change reaches goes through them. Dependencies
 * point only to modules generated earlier, so there is no cycle unless `cycles` asks for some.
 */
export interface SyntheticOptions {
  modules: number;
  seed?: number;
  /** How many 3-module cycles to add. */
  cycles?: number;
  bucket?: string;
}

export interface SyntheticMonorepo {
  ids: string[];
  /** The file and line of one remote_state block's key, for incremental benchmarks. */
  sampleReference: { file: string; keyLine: number; id: string };
  /** The first module's outputs file, how many modules read its output `r0_id`, and one reader's file. */
  hub: { outputsFile: string; output: string; readers: number; readerFile: string };
  edges: number;
  /** Files read from outside the modules' folders: each service's policy, and the shared child module's files. */
  shared: { policies: string[]; labels: string[] };
}

/** Every how many modules one calls the shared child module `modules/labels`. */
const LABELS_EVERY = 5;

/** Every how many modules one reads the hub's output. */
const HUB_EVERY = 10;

const SERVICES = ['network', 'platform', 'data', 'app', 'security', 'observability', 'edge', 'billing'];
const ENVIRONMENTS = ['prod', 'stage', 'dev', 'qa'];
const REGIONS = ['eu-central-1', 'eu-west-1', 'us-east-1', 'us-west-2', 'ap-southeast-1'];

export function moduleIds(count: number): string[] {
  const ids: string[] = [];
  for (let i = 0; ids.length < count; i++) {
    const service = SERVICES[i % SERVICES.length]!;
    const environment = ENVIRONMENTS[Math.floor(i / SERVICES.length) % ENVIRONMENTS.length]!;
    const region = REGIONS[Math.floor(i / (SERVICES.length * ENVIRONMENTS.length)) % REGIONS.length]!;
    const index = Math.floor(i / (SERVICES.length * ENVIRONMENTS.length * REGIONS.length));
    ids.push(`${service}/${environment}/${region}/m${String(index).padStart(4, '0')}`);
  }
  return ids;
}

export function generateMonorepo(root: string, options: SyntheticOptions): SyntheticMonorepo {
  const rand = seededRandom(options.seed ?? 1);
  const bucket = options.bucket ?? 'acme-tfstate';
  const ids = moduleIds(options.modules);
  let edges = 0;
  let sample: SyntheticMonorepo['sampleReference'] | undefined;
  let hubReaders = 0;
  ids.forEach((id, index) => {
    const deps = new Set<string>();
    const wanted = index === 0 ? 0 : 1 + Math.floor(rand() * 4);
    for (let k = 0; k < wanted && deps.size < index; k++) deps.add(ids[Math.floor(rand() * index)]!);
    const dir = path.join(root, id);
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'backend.tf'), backendFile(bucket, id));
    writeFileSync(path.join(dir, 'variables.tf'), variablesFile(id));
    writeFileSync(path.join(dir, 'outputs.tf'), outputsFile());
    const data = dataFile(bucket, [...deps], rand);
    const readsHub = index > 0 && index % HUB_EVERY === 0;
    writeFileSync(
      path.join(dir, 'data.tf'),
      readsHub ? `${data.text}\n${remoteState('hub', bucket, `"${ids[0]}/terraform.tfstate"`)}` : data.text,
    );
    writeFileSync(path.join(dir, 'main.tf'), mainFile(id, [...deps], data.reads, readsHub, index % LABELS_EVERY === 0));
    if (readsHub) hubReaders++;
    edges += deps.size + (readsHub ? 1 : 0);
    if (!sample && data.keyLine >= 0) sample = { file: path.join(dir, 'data.tf'), keyLine: data.keyLine, id };
  });
  const policies = SERVICES.map((service) => path.join(root, 'policies', `${service}.json`));
  mkdirSync(path.join(root, 'policies'), { recursive: true });
  for (const file of policies) writeFileSync(file, '{ "Version": "2012-10-17", "Statement": [] }\n');
  const labelsDir = path.join(root, 'modules', 'labels');
  mkdirSync(labelsDir, { recursive: true });
  const labels = [path.join(labelsDir, 'main.tf'), path.join(labelsDir, 'labels.json')];
  writeFileSync(labels[0]!, LABELS_MODULE);
  writeFileSync(labels[1]!, '{ "team": "platform" }\n');
  for (let c = 0; c < (options.cycles ?? 0) && ids.length >= 3; c++) {
    const [a, b, x] = [ids[c * 3]!, ids[c * 3 + 1]!, ids[c * 3 + 2]!];
    writeFileSync(path.join(root, a, 'cycle.tf'), remoteState('cycle', bucket, `"${x}/terraform.tfstate"`));
    writeFileSync(path.join(root, b, 'cycle.tf'), remoteState('cycle', bucket, `"${a}/terraform.tfstate"`));
    writeFileSync(path.join(root, x, 'cycle.tf'), remoteState('cycle', bucket, `"${b}/terraform.tfstate"`));
    edges += 3;
  }
  return {
    ids,
    sampleReference: sample ?? { file: '', keyLine: -1, id: '' },
    hub: {
      outputsFile: path.join(root, ids[0]!, 'outputs.tf'),
      output: 'r0_id',
      readers: hubReaders,
      readerFile: path.join(root, ids[Math.min(HUB_EVERY, ids.length - 1)]!, 'main.tf'),
    },
    edges,
    shared: { policies, labels },
  };
}

function backendFile(bucket: string, id: string): string {
  return `terraform {
  required_version = ">= 1.5.0"

  backend "s3" {
    bucket         = "${bucket}"
    key            = "${id}/terraform.tfstate"
    region         = "eu-central-1"
    dynamodb_table = "terraform-locks"
    encrypt        = true
  }
}
`;
}

function variablesFile(id: string): string {
  const [service, environment, region] = id.split('/');
  return `variable "service" {
  type        = string
  description = "The service this stack belongs to."
  default     = "${service}"
}

variable "environment" {
  type        = string
  description = "Deployment environment."
  default     = "${environment}"
}

variable "region" {
  type        = string
  description = "Cloud region."
  default     = "${region}"
}

variable "tags" {
  type        = map(string)
  description = "Tags applied to every resource."
  default = {
    owner      = "platform-team"
    managed_by = "terraform"
  }
}
`;
}

/** The shared child module: it reads a file of its own folder. */
const LABELS_MODULE = `variable "name" {
  type = string
}

output "labels" {
  value = merge(jsondecode(file("\${path.module}/labels.json")), { name = var.name })
}
`;

/**
 * Four resources; each reads an output of a state the module reads (`reads`: the blocks, as referenced),
 * the first its service's policy; with `labels`, a call of the shared child module.
 */
function mainFile(id: string, deps: string[], reads: readonly string[], readsHub: boolean, labels: boolean): string {
  const resources = [0, 1, 2, 3]
    .map(
      (n) => `resource "terraform_data" "r${n}" {
  input = {
    name        = "\${var.service}-\${var.environment}-${n}"
    region      = var.region
    tags        = merge(var.tags, { component = "r${n}" })
    depends_on  = ${JSON.stringify(deps.slice(0, 2))}${reads.length > 0 ? `\n    upstream    = ${reads[n % reads.length]}.outputs.r${n}_id` : ''}${readsHub && n === 0 ? '\n    shared      = data.terraform_remote_state.hub.outputs.r0_id' : ''}${n === 0 ? `\n    policy      = file("\${path.module}/../../../../policies/${id.split('/')[0]}.json")` : ''}
  }

  lifecycle {
    ignore_changes = [input]
  }
}
`,
    )
    .join('\n');
  const call = labels
    ? '\nmodule "labels" {\n  source = "../../../../modules/labels"\n  name   = var.service\n}\n'
    : '';
  return `# ${id}: resources of this stack.\n\n${resources}${call}`;
}

function outputsFile(): string {
  return [0, 1, 2, 3]
    .map(
      (n) => `output "r${n}_id" {
  description = "Identifier of r${n}."
  value       = terraform_data.r${n}.id
}
`,
    )
    .join('\n');
}

/** 1–4 remote-state reads: keys through locals, format(), and a for_each over two of them. */
function dataFile(
  bucket: string,
  deps: string[],
  rand: () => number,
): { text: string; keyLine: number; reads: string[] } {
  if (deps.length === 0) return { text: '# This stack reads no other state.\n', keyLine: -1, reads: [] };
  const reads = ['data.terraform_remote_state.d0'];
  const lines = ['locals {', `  state_bucket = "${bucket}"`, '  state_file   = "terraform.tfstate"', '}', ''];
  let keyLine = -1;
  const [first, ...rest] = deps;
  const useForEach = rest.length >= 2 && rand() < 0.3;
  lines.push(
    'data "terraform_remote_state" "d0" {',
    '  backend = "s3"',
    '  config = {',
    '    bucket = local.state_bucket',
  );
  keyLine = lines.length;
  lines.push(`    key    = "${first}/\${local.state_file}"`, '    region = "eu-central-1"', '  }', '}', '');
  if (useForEach) {
    const pair = rest.splice(0, 2);
    reads.push(...pair.map((dep) => `data.terraform_remote_state.each[${JSON.stringify(dep)}]`));
    lines.push(
      'data "terraform_remote_state" "each" {',
      `  for_each = toset(${JSON.stringify(pair)})`,
      '  backend  = "s3"',
      '  config = {',
      '    bucket = local.state_bucket',
      '    key    = format("%s/%s", each.key, local.state_file)',
      '    region = "eu-central-1"',
      '  }',
      '}',
      '',
    );
  }
  rest.forEach((dep, n) => {
    reads.push(`data.terraform_remote_state.d${n + 1}`);
    lines.push(
      `data "terraform_remote_state" "d${n + 1}" {`,
      '  backend = "s3"',
      '  config = {',
      `    bucket = "${bucket}"`,
      `    key    = "${dep}/terraform.tfstate"`,
      '    region = "eu-central-1"',
      '  }',
      '}',
      '',
    );
  });
  return { text: lines.join('\n'), keyLine, reads };
}

function remoteState(name: string, bucket: string, key: string): string {
  return `data "terraform_remote_state" "${name}" {
  backend = "s3"
  config = {
    bucket = "${bucket}"
    key    = ${key}
    region = "eu-central-1"
  }
}
`;
}

/**
 * The sample reference's file with its key pointing at a state nobody writes: the edit the
 * incremental benchmarks make (and undo) to change one remote-state key.
 */
export function withUnwrittenKey(text: string, keyLine: number): string {
  const lines = text.split('\n');
  lines[keyLine] = lines[keyLine]!.replace('/${local.state_file}', '/nobody-writes.tfstate');
  return lines.join('\n');
}

/** An outputs file without one of its `output` blocks: the edit that breaks every reader of it. */
export function withoutOutput(text: string, name: string): string {
  const without = text.replace(new RegExp(`output "${name}" \\{[^}]*\\}\\n`), '');
  if (without === text) throw new Error(`no output "${name}" to delete`);
  return without;
}
