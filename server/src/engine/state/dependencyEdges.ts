import { folderRelative, isUnknown } from '../evaluation';
import type { EvaluatedModule, Reference } from '../workspace';
import type { MatchResult } from './match';

/**
 * The edges a Terragrunt unit declares by folder (`dependency` blocks, `dependencies` paths), added
 * to what its state reads matched: an edge to the unit in that folder, or, when no unit is there,
 * an unresolved reference that says so.
 */
export function withDependencies(
  module: EvaluatedModule,
  own: MatchResult,
  unitAt: (dir: string) => string | undefined,
): MatchResult {
  if (module.dependencies.length === 0) return own;
  const result: MatchResult = { edges: [...own.edges], unresolved: [...own.unresolved], ambiguous: own.ambiguous };
  for (const dependency of module.dependencies) {
    const target = dependency.dir;
    const written = isUnknown(target) ? undefined : folderRelative(module.dir, target);
    const reference: Reference = {
      name: dependency.name,
      file: dependency.file,
      range: dependency.range,
      headerRange: dependency.headerRange,
      instance: null,
      backend: dependency.kind,
      config: written === undefined ? {} : { config_path: written },
      workspace: 'default',
      cwd: module.dir,
      block: dependency.kind,
    };
    if (isUnknown(target)) {
      const why = target.reasons.join('; ');
      result.unresolved.push({
        from: module.id,
        reference,
        reason: dependency.refused
          ? why
          : `the path of ${label(dependency.kind, dependency.name)} is not known: ${why}`,
        address: undefined,
        writers: [],
        ...(dependency.refused ? { refused: true } : {}),
      });
      continue;
    }
    const to = unitAt(target);
    if (to === undefined || to === module.id) {
      result.unresolved.push({
        from: module.id,
        reference,
        reason:
          to === module.id
            ? `${written} is this unit itself`
            : `${written} is not a Terragrunt unit of this workspace (no terragrunt.hcl there)`,
        address: undefined,
        writers: [],
        missingUnit: to === undefined,
      });
      continue;
    }
    result.edges.push({
      from: module.id,
      to,
      reference,
      address: written!,
      matchedBy: 'dependency',
      match: 'exact',
      assumed: [],
      candidates: [to],
      unknowns: [],
    });
  }
  return result;
}

function label(kind: 'dependency' | 'dependencies', name: string): string {
  return kind === 'dependency' ? `dependency "${name}"` : 'a dependencies path';
}
