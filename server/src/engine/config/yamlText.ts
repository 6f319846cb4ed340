import { ConfigError } from './configValues';

/** The YAML library, loaded with the first configuration file: a folder without one does not wait for it. */
let yaml: typeof import('yaml') | undefined;

/** YAML text to a value; an empty file is an empty mapping. */
export function parseYaml(text: string, file: string): unknown {
  yaml ??= require('yaml') as typeof import('yaml');
  try {
    return yaml.parse(text) ?? {};
  } catch (error) {
    throw new ConfigError(file, error instanceof Error ? error.message : String(error));
  }
}
