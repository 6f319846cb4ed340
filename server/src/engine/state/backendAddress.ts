import path from 'node:path';
import {
  findUnknown,
  type Hole,
  hole,
  isHole,
  isObjectValue,
  isUnknown,
  literalText,
  type ObjectValue,
  type Template,
  template,
  type Value,
} from '../evaluation';

/**
 * Where a Terraform state lives, as one canonical string: the one place that decides state
 * addresses, for writers (a root module's own backend) and readers (`terraform_remote_state`)
 * alike, so that the two compare by equality. See terraform-facts: the location fields (bucket,
 * storage account, organization) are part of the address, so one key in two buckets is two states.
 */
export type StateAddress =
  | { known: true; address: string /** The key-ish part, for the path-convention fallback. */; key: string | undefined }
  | { known: false; reasons: string[]; key: string | undefined };

export interface AddressInput {
  /** `s3`, `gcs`, `azurerm`, `local`, `remote` (the `cloud {}` block is `remote`), … */
  type: string;
  /** The backend configuration: the block's attributes, or the reader's `config`. */
  config: ObjectValue;
  /** The workspace whose state is meant. */
  workspace: string;
  /** Absolute directory that relative `local` paths resolve against: the module that runs. */
  moduleDir: string;
  /** Absolute workspace root; `local` addresses are shown relative to it. */
  root: string;
}

const DEFAULT_WORKSPACE = 'default';

export function stateAddress(input: AddressInput): StateAddress {
  switch (input.type) {
    case 's3':
      return s3Address(input);
    case 'gcs':
      return gcsAddress(input);
    case 'azurerm':
      return azurermAddress(input);
    case 'local':
      return localAddress(input);
    case 'remote':
      return remoteAddress(input);
    default:
      return genericAddress(input);
  }
}

/** Reads string fields; unknown or missing required fields become the reasons of an unknown address. */
class Fields {
  readonly reasons: string[] = [];
  constructor(
    private readonly input: AddressInput,
    private readonly what: string,
  ) {}

  required(name: string): string {
    const value = this.input.config[name];
    if (value === undefined || value === null) {
      this.reasons.push(`${this.what} sets no ${name}`);
      return '';
    }
    return this.asString(name, value);
  }

  optional(name: string, fallback: string): string {
    const value = this.input.config[name];
    if (value === undefined || value === null) return fallback;
    return this.asString(name, value);
  }

  private asString(name: string, value: Value): string {
    const unknownPart = findUnknown(value);
    if (unknownPart) {
      this.reasons.push(...unknownPart.reasons.map((reason) => `${name}: ${reason}`));
      return '';
    }
    if (typeof value === 'string') return value;
    if (typeof value === 'number' || typeof value === 'boolean') return String(value);
    this.reasons.push(`${name} is not a string`);
    return '';
  }

  /** The key-ish field, when it is known, for the path-convention fallback. */
  peek(name: string): string | undefined {
    const value = this.input.config[name];
    return typeof value === 'string' ? value : undefined;
  }

  result(address: string, key: string | undefined): StateAddress {
    return this.reasons.length === 0 ? { known: true, address, key } : { known: false, reasons: this.reasons, key };
  }
}

function what(input: AddressInput): string {
  return `the ${input.type} backend configuration`;
}

function s3Address(input: AddressInput): StateAddress {
  const f = new Fields(input, what(input));
  const bucket = f.required('bucket');
  const key = f.required('key');
  const prefix = f.optional('workspace_key_prefix', 'env:');
  const object = input.workspace === DEFAULT_WORKSPACE ? key : `${prefix}/${input.workspace}/${key}`;
  return f.result(`s3://${bucket}/${object}`, f.peek('key'));
}

function gcsAddress(input: AddressInput): StateAddress {
  const f = new Fields(input, what(input));
  const bucket = f.required('bucket');
  const prefix = f.optional('prefix', '').replace(/\/+$/, '');
  const object = prefix ? `${prefix}/${input.workspace}.tfstate` : `${input.workspace}.tfstate`;
  return f.result(`gcs://${bucket}/${object}`, f.peek('prefix'));
}

function azurermAddress(input: AddressInput): StateAddress {
  const f = new Fields(input, what(input));
  const account = f.required('storage_account_name');
  const container = f.required('container_name');
  const key = f.required('key');
  const blob = input.workspace === DEFAULT_WORKSPACE ? key : `${key}env:${input.workspace}`;
  return f.result(`azurerm://${account}/${container}/${blob}`, f.peek('key'));
}

function localAddress(input: AddressInput): StateAddress {
  const f = new Fields(input, what(input));
  const statePath = f.optional('path', 'terraform.tfstate');
  const workspaceDir = f.optional('workspace_dir', 'terraform.tfstate.d');
  const file =
    input.workspace === DEFAULT_WORKSPACE
      ? path.resolve(input.moduleDir, statePath)
      : path.resolve(input.moduleDir, workspaceDir, input.workspace, 'terraform.tfstate');
  return f.result(`local://${shownPath(file, input.root)}`, f.peek('path'));
}

/**
 * Where a root module with no backend block writes its state: Terraform's default, the local backend's
 * `terraform.tfstate` in its folder (`terraform.tfstate.d/<workspace>/terraform.tfstate` in another
 * workspace), which readers name as any local path.
 */
export function defaultStateAddress(moduleDir: string, workspace: string, root: string): StateAddress {
  return localAddress({ type: 'local', config: {}, workspace, moduleDir, root });
}

/** `remote` backends and `cloud {}` blocks: a workspace is named, or is a prefix plus the workspace. */
function remoteAddress(input: AddressInput): StateAddress {
  const f = new Fields(input, what(input));
  const hostname = f.optional('hostname', 'app.terraform.io');
  const organization = f.required('organization');
  const workspaces = input.config['workspaces'];
  const block = Array.isArray(workspaces) ? workspaces[0] : workspaces;
  let name = '';
  if (block === undefined || block === null) f.reasons.push(`${what(input)} sets no workspaces`);
  else if (isUnknown(block)) f.reasons.push(...block.reasons);
  else if (isObjectValue(block)) name = remoteWorkspaceName(block, input.workspace, f);
  else f.reasons.push('workspaces is not an object');
  return f.result(`remote://${hostname}/${organization}/${name}`, name || undefined);
}

function remoteWorkspaceName(block: ObjectValue, workspace: string, f: Fields): string {
  const { name, prefix, tags } = block;
  if (typeof name === 'string') return name;
  if (typeof prefix === 'string') return `${prefix}${workspace}`;
  const unknownPart = findUnknown(name ?? prefix ?? null);
  if (unknownPart) f.reasons.push(...unknownPart.reasons);
  else if (tags !== undefined) f.reasons.push('workspaces selected by tags cannot be matched statically');
  else f.reasons.push('workspaces sets neither name nor prefix');
  return '';
}

/**
 * A writer that selects its remote workspaces by prefix writes a whole family of states: every
 * `remote://host/org/<prefix><W>`. A reader may name one of them directly (`name = "net-stage"`),
 * so the family's common start is matched too. Undefined for every other writer.
 */
export function addressFamily(input: AddressInput): string | undefined {
  if (input.type !== 'remote') return undefined;
  const { hostname, organization, workspaces } = input.config;
  const block = Array.isArray(workspaces) ? workspaces[0] : workspaces;
  if (!block || !isObjectValue(block) || typeof block.prefix !== 'string' || typeof block.name === 'string')
    return undefined;
  if (typeof organization !== 'string' || (hostname !== undefined && typeof hostname !== 'string')) return undefined;
  return `remote://${hostname ?? 'app.terraform.io'}/${organization}/${block.prefix}`;
}

/** Other backends: the type plus every known setting, so equal configurations still compare equal. */
function genericAddress(input: AddressInput): StateAddress {
  const entries = Object.keys(input.config)
    .sort()
    .map((name) => [name, input.config[name]!] as const);
  const unknownPart = entries.map(([, value]) => findUnknown(value)).find((found) => found !== undefined);
  if (unknownPart) return { known: false, reasons: [...unknownPart.reasons], key: undefined };
  const settings = entries.map(
    ([name, value]) => `${name}=${typeof value === 'string' ? value : JSON.stringify(value)}`,
  );
  const workspace = input.workspace === DEFAULT_WORKSPACE ? '' : `#${input.workspace}`;
  return { known: true, address: `${input.type}://${settings.join(',')}${workspace}`, key: undefined };
}

/**
 * The path convention (TerraCi's): a state key names the module that writes it when the key,
 * minus `/terraform.tfstate` or `.tfstate` and a leading `env:/<workspace>/`, is the module's id.
 */
export function moduleIdFromKey(key: string): string {
  return key
    .replace(/^env:\/[^/]+\//, '')
    .replace(/^\/+/, '')
    .replace(/\/terraform\.tfstate$/, '')
    .replace(/\.tfstate$/, '');
}

/**
 * The workspace a template is for: the default one, a named one, or any other than default (a writer's
 * states in every workspace it may be selected in; a reader whose workspace is known only at run time).
 */
export type WorkspaceSpec = { kind: 'default' } | { kind: 'named'; name: string } | { kind: 'hole'; hole: Hole };

/** A state address with unknown parts, in the form `stateAddress` writes known ones. */
export interface TemplateAddress {
  template: Template;
  /** The object within its location (s3 key with any workspace prefix, gcs object, azurerm blob): the text that tells one module's state from another's. */
  key: Template;
}

/** Values users copy from examples and never replaced: not a real bucket, so unknown. */
const PLACEHOLDER = /^(update[-_ ]?me|replace[-_ ]?me|change[-_ ]?me|replace-with-.*|your[-_].*|<.*>|x{3,}|todo|tbd)$/i;

/**
 * The address of `input`'s configuration in `workspace` as a template: each field that is not known
 * (a variable without a default, a placeholder, a field given only at `terraform init`) is a hole.
 * A local path is resolved from `place`, its module's folder (the reader's, Terraform's working folder).
 * Undefined for backends whose addresses are compared only when fully known (remote, others).
 */
export function templateAddress(
  type: string,
  config: ObjectValue,
  workspace: WorkspaceSpec,
  place?: LocalPlace,
): TemplateAddress | undefined {
  const field = (name: string, options: FieldOptions = {}) => fieldTemplate(type, config, name, options);
  const ws = workspace.kind === 'hole' ? [workspace.hole] : workspace.kind === 'named' ? [workspace.name] : ['default'];
  switch (type) {
    case 's3': {
      const bucket = field('bucket', { location: true });
      const key = field('key');
      const object =
        workspace.kind === 'default'
          ? key
          : template(field('workspace_key_prefix', { fallback: 'env:' }), '/', ws, '/', key);
      return { template: template('s3://', bucket, '/', object), key: object };
    }
    case 'gcs': {
      const bucket = field('bucket', { location: true });
      const prefix = trimTrailingSlashes(field('prefix', { fallback: '' }));
      const object = prefix.length > 0 ? template(prefix, '/', ws, '.tfstate') : template(ws, '.tfstate');
      return { template: template('gcs://', bucket, '/', object), key: object };
    }
    case 'azurerm': {
      const account = field('storage_account_name', { location: true });
      const container = field('container_name', { location: true });
      const key = field('key');
      const blob = workspace.kind === 'default' ? key : template(key, 'env:', ws);
      return { template: template('azurerm://', account, '/', container, '/', blob), key: blob };
    }
    case 'local': {
      if (!place) return undefined;
      // As `localAddress`: `path` in the default workspace, `workspace_dir/<name>/terraform.tfstate` in another.
      const file =
        workspace.kind === 'default'
          ? field('path', { fallback: 'terraform.tfstate' })
          : template(field('workspace_dir', { fallback: 'terraform.tfstate.d' }), '/', ws, '/terraform.tfstate');
      const shown = localTemplate(file, place);
      return { template: template('local://', shown), key: shown };
    }
    default:
      return undefined;
  }
}

/** Where a local path is resolved from: its module's folder, and the root that addresses are shown from. */
export interface LocalPlace {
  moduleDir: string;
  root: string;
}

/**
 * A local path known in part, as `localAddress` shows a known one: its known start (up to its last `/`
 * before a hole) resolved from the module's folder, relative to the root when inside it. A path that
 * starts with a hole is taken to be relative, as a state file's usually is; what an inferred edge
 * assumes of the hole says so.
 */
function localTemplate(parts: Template, place: LocalPlace): Template {
  const known = literalText(parts);
  if (known !== undefined) return [shownPath(path.resolve(place.moduleDir, known), place.root)];
  const head = typeof parts[0] === 'string' ? parts[0] : '';
  const cut = head.lastIndexOf('/') + 1;
  const folder = shownPath(path.resolve(place.moduleDir, head.slice(0, cut)), place.root);
  return template(folder === '' ? '' : `${folder}/`, head.slice(cut), parts.slice(head === '' ? 0 : 1));
}

/** A local state's path as addresses show it: relative to the root when inside it, `/`-separated. */
function shownPath(file: string, root: string): string {
  const relative = path.relative(root, file);
  const shown = relative.startsWith('..') || path.isAbsolute(relative) ? file : relative;
  return shown.split(path.sep).join('/');
}

interface FieldOptions {
  /** The value when the field is not set (an optional field). */
  fallback?: string;
  /** A location field (bucket, account, container): one segment, and placeholders count as unknown. */
  location?: boolean;
}

function fieldTemplate(type: string, config: ObjectValue, name: string, options: FieldOptions): Template {
  const value = config[name];
  const segment = options.location === true;
  if (value === undefined || value === null) {
    if (options.fallback !== undefined) return template(options.fallback);
    return [hole(name, [`the ${type} backend configuration sets no ${name}`], segment)];
  }
  if (typeof value === 'string') {
    if (segment && PLACEHOLDER.test(value)) return [hole(name, [`${name} "${value}" is a placeholder`], true)];
    return template(value);
  }
  if (typeof value === 'number' || typeof value === 'boolean') return [String(value)];
  if (isUnknown(value)) {
    if (!value.text) return [hole(name, value.reasons, segment)];
    return segment ? value.text.map((part) => (isHole(part) ? { ...part, segment: true } : part)) : value.text;
  }
  return [hole(name, [`${name} is not a string`], segment)];
}

function trimTrailingSlashes(parts: Template): Template {
  const last = parts[parts.length - 1];
  if (typeof last !== 'string') return parts;
  return template(parts.slice(0, -1), last.replace(/\/+$/, ''));
}
