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

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
