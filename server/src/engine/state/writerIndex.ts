import { hole, isUnknown, type Template } from '../evaluation';
import type { EvaluatedModule } from '../workspace';
import { type Binding, unify } from './addressTemplate';
import {
  addressFamily,
  defaultStateAddress,
  type StateAddress,
  stateAddress,
  type TemplateAddress,
  templateAddress,
  type WorkspaceSpec,
} from './backendAddress';
import { WriterCandidates, type WriterTemplate } from './writerCandidates';

/** Everything about a module that decides the states it writes. */
export function writerSignature(module: EvaluatedModule): string {
  const backend = module.backend;
  return backend
    ? `${module.dir}|${backend.type}|${JSON.stringify(backend.configs.map(({ config }) => config))}`
    : module.dir;
}

/**
 * Whether the known part of a key can tell one module's state from another's: something besides the
 * names every state shares (`terraform.tfstate`, `default`, `env:`) and separators.
 */
export function tellsWritersApart(key: Template): boolean {
  const known = key.filter((part): part is string => typeof part === 'string').join('');
  return known.replace(/terraform\.tfstate|\.tfstate|default|env:|[/._-]/g, '').length > 0;
}

/** Every module's own state addresses, per workspace (computed when a workspace is first asked for). */
export class WriterIndex {
  private readonly byWorkspace = new Map<string, Map<string, string[]>>();
  /** Modules whose backend address is not fully known, by id, with their backend type. */
  private readonly partial = new Map<string, string>();
  /** Writers of a family of addresses (remote workspaces by prefix): the family's start and the module. */
  private readonly families: { start: string; id: string }[] = [];

  constructor(
    private readonly modules: readonly EvaluatedModule[],
    readonly root: string,
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
      // A read known as a whole (a state nobody writes, most often) tries only the writers that can fit it.
      const whole = pieces.length === reader.template.length ? pieces.join('') : undefined;
      const writers = whole === undefined ? this.templatesOf(type) : this.candidatesOf(type).forText(whole);
      for (const writer of writers) {
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
  private readonly candidates = new Map<string, WriterCandidates>();

  private candidatesOf(type: string): WriterCandidates {
    let found = this.candidates.get(type);
    if (!found) {
      found = new WriterCandidates(this.templatesOf(type));
      this.candidates.set(type, found);
    }
    return found;
  }

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
            const address = templateAddress(backend.type, config, spec, { moduleDir: module.dir, root: this.root });
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
      ? // A Terragrunt unit's code runs in a copy under .terragrunt-cache, and a Stack's components in HCP Terraform.
        module.kind === 'module'
        ? [defaultStateAddress(module.dir, workspace, root)]
        : []
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
