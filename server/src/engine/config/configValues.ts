/**
 * Checked reads of configuration values (`.terrace.yaml`, `.terraci.yaml`): each either returns
 * the value in the expected shape or throws a `ConfigError` that names the file, the key (as a
 * dotted path) and what was expected.
 */
export class ConfigError extends Error {
  constructor(
    readonly file: string,
    message: string,
  ) {
    super(`${file}: ${message}`);
  }
}

export type ConfigRecord = Record<string, unknown>;

export function record(value: unknown, at: string, file: string): ConfigRecord {
  if (isRecord(value)) return value;
  throw new ConfigError(file, `${at || 'the file'} must be a mapping of keys to values`);
}

export function isRecord(value: unknown): value is ConfigRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function string(value: unknown, at: string, file: string): string {
  if (typeof value === 'string') return value;
  throw new ConfigError(file, `${at} must be a string`);
}

export function nonEmptyString(value: unknown, at: string, file: string): string {
  const text = string(value, at, file);
  if (text.trim() === '') throw new ConfigError(file, `${at} must not be empty`);
  return text;
}

export function strings(value: unknown, at: string, file: string): string[] {
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return value;
  throw new ConfigError(file, `${at} must be a list of strings`);
}

/** A string or a list of strings (GitLab's `script`-like keywords accept both). */
export function stringOrStrings(value: unknown, at: string, file: string): string | string[] {
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return value;
  throw new ConfigError(file, `${at} must be a string or a list of strings`);
}

export function boolean(value: unknown, at: string, file: string): boolean {
  if (typeof value === 'boolean') return value;
  throw new ConfigError(file, `${at} must be true or false`);
}

export function integer(value: unknown, at: string, file: string, minimum: number): number {
  if (typeof value === 'number' && Number.isInteger(value) && value >= minimum) return value;
  throw new ConfigError(file, `${at} must be a whole number of at least ${minimum}`);
}

export function oneOf<T extends string>(value: unknown, at: string, file: string, allowed: readonly T[]): T {
  const text = string(value, at, file);
  if ((allowed as readonly string[]).includes(text)) return text as T;
  throw new ConfigError(file, `${at} must be ${orList(allowed.map((item) => `'${item}'`))}, not '${text}'`);
}

/** Environment-like variables: names to scalar values, kept as strings (YAML may give numbers or booleans). */
export function variables(value: unknown, at: string, file: string): Record<string, string> {
  const map = record(value, at, file);
  const result: Record<string, string> = {};
  for (const [name, item] of Object.entries(map)) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
      throw new ConfigError(file, `${at}.${name}: a variable name must be letters, digits and _`);
    if (typeof item === 'string' || typeof item === 'number' || typeof item === 'boolean') result[name] = String(item);
    else throw new ConfigError(file, `${at}.${name} must be a string, a number or true/false`);
  }
  return result;
}

/** A list of mappings (GitLab `rules`, GitHub steps). */
export function records(value: unknown, at: string, file: string): ConfigRecord[] {
  if (Array.isArray(value) && value.every(isRecord)) return value;
  throw new ConfigError(file, `${at} must be a list of mappings`);
}

export function unknownKey(file: string, at: string, expected: readonly string[]): ConfigError {
  return new ConfigError(file, `unknown key '${at}'; expected ${orList(expected)}`);
}

/** `a, b or c`. */
export function orList(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`;
}

export function pattern(value: string, at: string, file: string): string {
  if (!/^\{[\w-]+\}(\/\{[\w-]+\})*$/.test(value)) {
    throw new ConfigError(
      file,
      `${at} must be folder names in braces joined by '/', like {service}/{environment}/{region}/{module}; got '${value}'`,
    );
  }
  return value;
}

/** Folders relative to the workspace, normalised to `a/b` (no leading `./`, no trailing `/`). */
export function folders(value: unknown, at: string, file: string): string[] {
  return strings(value, at, file).map((folder) =>
    folder.replaceAll('\\', '/').replace(/^\.\//, '').replace(/\/+$/, ''),
  );
}
