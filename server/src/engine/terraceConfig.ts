import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'yaml';
import { type AnalysisOptions, defaultOptions } from './analysisOptions';

/** The workspace's `.terrace.yaml`, read by the CLI and the server alike. */
export const CONFIG_FILE = '.terrace.yaml';

export class ConfigError extends Error {
  constructor(
    readonly file: string,
    message: string,
  ) {
    super(`${file}: ${message}`);
  }
}

/**
 * The analysis options of a workspace: `base` (the defaults, or the editor's settings),
 * overridden by what `.terrace.yaml` sets. An invalid file is an error that names the key and
 * what was expected, never silently ignored.
 */
export async function loadAnalysisOptions(
  root: string,
  base: AnalysisOptions = defaultOptions(),
): Promise<AnalysisOptions> {
  const file = path.join(root, CONFIG_FILE);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return base;
    throw new ConfigError(file, error instanceof Error ? error.message : String(error));
  }
  return parseAnalysisOptions(text, file, base);
}

export function parseAnalysisOptions(
  text: string,
  file: string,
  base: AnalysisOptions = defaultOptions(),
): AnalysisOptions {
  let doc: unknown;
  try {
    doc = parse(text) ?? {};
  } catch (error) {
    throw new ConfigError(file, error instanceof Error ? error.message : String(error));
  }
  const options: AnalysisOptions = { ...base, discovery: { ...base.discovery } };
  const top = record(doc, '', file);
  for (const [key, value] of Object.entries(top)) {
    if (key === 'discovery') readDiscovery(record(value, 'discovery', file), options, file);
    else if (key === 'terraformWorkspace') options.terraformWorkspace = string(value, key, file);
    else if (!LATER_SECTIONS.has(key))
      throw new ConfigError(
        file,
        `unknown key '${key}'; expected one of discovery, terraformWorkspace, ${[...LATER_SECTIONS].join(', ')}`,
      );
  }
  return options;
}

/** Sections read by the pipeline and run features, not by the analysis. */
const LATER_SECTIONS = new Set(['execution', 'gitlab', 'github']);

function readDiscovery(section: Record<string, unknown>, options: AnalysisOptions, file: string): void {
  const discovery = options.discovery;
  for (const [key, value] of Object.entries(section)) {
    const at = `discovery.${key}`;
    switch (key) {
      case 'mode': {
        const mode = string(value, at, file);
        if (mode !== 'auto' && mode !== 'pattern')
          throw new ConfigError(file, `${at} must be 'auto' or 'pattern', not '${mode}'`);
        discovery.mode = mode;
        break;
      }
      case 'pattern':
        discovery.pattern = pattern(string(value, at, file), at, file);
        break;
      case 'exclude':
      case 'include':
      case 'backendConfigFiles':
        discovery[key] = strings(value, at, file);
        break;
      default:
        throw new ConfigError(
          file,
          `unknown key '${at}'; expected mode, pattern, exclude, include or backendConfigFiles`,
        );
    }
  }
}

function pattern(value: string, at: string, file: string): string {
  if (!/^\{[\w-]+\}(\/\{[\w-]+\})*$/.test(value)) {
    throw new ConfigError(
      file,
      `${at} must be folder names in braces joined by '/', like {service}/{environment}/{region}/{module}; got '${value}'`,
    );
  }
  return value;
}

function record(value: unknown, at: string, file: string): Record<string, unknown> {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  throw new ConfigError(file, `${at || 'the file'} must be a mapping of keys to values`);
}

function string(value: unknown, at: string, file: string): string {
  if (typeof value === 'string') return value;
  throw new ConfigError(file, `${at} must be a string`);
}

function strings(value: unknown, at: string, file: string): string[] {
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return value;
  throw new ConfigError(file, `${at} must be a list of strings`);
}
