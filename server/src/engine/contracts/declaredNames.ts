import type { DeclaredOutput } from './declaredOutput';

/**
 * A writer's declared outputs by name, made once per writer (its list is kept while its code is the same):
 * each read and each `mock_outputs` key looks its name up, and 10,000 reads of a writer of 10,000 outputs
 * scanned the list 10,000 times.
 */
export function declaredNamed(
  declared: readonly DeclaredOutput[],
  name: string | undefined,
): DeclaredOutput | undefined {
  if (name === undefined) return undefined;
  let byName = declaredByName.get(declared);
  if (!byName) {
    // The first of each name, in the order of the files.
    byName = new Map();
    for (const output of declared) if (!byName.has(output.name)) byName.set(output.name, output);
    declaredByName.set(declared, byName);
  }
  return byName.get(name);
}

const declaredByName = new WeakMap<readonly DeclaredOutput[], Map<string, DeclaredOutput>>();

/** A writer's output names, each once, for "did you mean". */
export function declaredNames(declared: readonly DeclaredOutput[]): readonly string[] {
  let names = namesOf.get(declared);
  if (!names) {
    names = [...new Set(declared.map((output) => output.name))];
    namesOf.set(declared, names);
  }
  return names;
}

const namesOf = new WeakMap<readonly DeclaredOutput[], readonly string[]>();
