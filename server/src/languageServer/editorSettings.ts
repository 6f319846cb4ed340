import type { TerraceSettings } from '../protocol';

/**
 * The `terrace` settings a client sent, as far as the server can use them: each value of the
 * right type; the rest left out (a client without settings sends none, another may send
 * anything), so that the defaults and `.terrace.yaml` apply.
 */
export type ReceivedSettings = Partial<Omit<TerraceSettings, 'discovery'>> & {
  discovery?: Partial<TerraceSettings['discovery']>;
};

/** Reads the answer to `workspace/configuration` for the `terrace` section. */
export function receivedSettings(raw: unknown): ReceivedSettings {
  if (!isRecord(raw)) return {};
  const settings: ReceivedSettings = {};
  if (typeof raw.terraformPath === 'string') settings.terraformPath = raw.terraformPath;
  if (typeof raw.terragruntPath === 'string') settings.terragruntPath = raw.terragruntPath;
  if (typeof raw.parallelism === 'number') settings.parallelism = raw.parallelism;
  if (typeof raw.planMaxAge === 'number') settings.planMaxAge = raw.planMaxAge;
  if (typeof raw.driftCheckInterval === 'number') settings.driftCheckInterval = raw.driftCheckInterval;
  if (isRecord(raw.discovery)) {
    const { mode, pattern, exclude } = raw.discovery;
    const discovery: ReceivedSettings['discovery'] = {};
    if (mode === 'auto' || mode === 'pattern') discovery.mode = mode;
    if (typeof pattern === 'string') discovery.pattern = pattern;
    if (Array.isArray(exclude) && exclude.every((glob) => typeof glob === 'string')) discovery.exclude = exclude;
    settings.discovery = discovery;
  }
  return settings;
}

/**
 * Each folder's settings as last known: as the client started the server (its first indexing asks nothing),
 * then as read after each change. A folder the client did not name is asked once, then kept.
 */
export class FolderSettings {
  private readonly known = new Map<string, ReceivedSettings>();

  /** `ask`: the client's `terrace` section for a folder (`workspace/configuration`); undefined when it cannot say. */
  constructor(private readonly ask: ((root: string) => Promise<unknown>) | undefined) {}

  /** What the client started the server with for a folder (its initialization options). */
  started(root: string, raw: unknown): void {
    this.known.set(root, receivedSettings(raw));
  }

  /** Whether a folder's settings are known without asking the client (it started the server with them, or cannot be asked). */
  knownWithoutAsking(root: string): boolean {
    return this.known.has(root) || !this.ask;
  }

  async of(root: string): Promise<ReceivedSettings> {
    const known = this.known.get(root);
    if (known || !this.ask) return known ?? {};
    const settings = receivedSettings(await this.ask(root));
    this.known.set(root, settings);
    return settings;
  }

  /**
   * The client says the settings changed: each folder's asked again, and those whose settings differ from
   * what was known (a folder not read yet reads them when it needs them) returned. All of them when the
   * client cannot be asked.
   */
  async changed(roots: readonly string[]): Promise<string[]> {
    if (!this.ask) return [...roots];
    const changed: string[] = [];
    for (const root of roots) {
      const now = receivedSettings(await this.ask(root));
      // Compared with what is known once the answer is in: a change said twice at once is asked twice, and the
      // second answer finds the first's settings known (compared before asking, both found the change).
      const before = this.known.get(root);
      this.known.set(root, now);
      if (before !== undefined && JSON.stringify(now) !== JSON.stringify(before)) changed.push(root);
    }
    return changed;
  }

  forget(root: string): void {
    this.known.delete(root);
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
