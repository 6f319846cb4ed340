import type { EvaluatedModule } from '../workspace';
import { type MatchResult, matchModule } from './match';
import { WriterIndex, writerSignature } from './writerIndex';

/**
 * Matches every reference to its writer by comparing state addresses (backend type, location
 * fields, key, workspace). The path convention is a fallback only for writers whose own address
 * is not known (a partial backend with no backend file): the key, minus `terraform.tfstate`,
 * names the module.
 *
 * Kept across edits: a module's matches depend on its own references and on the writers'
 * addresses; while no module's backend changed, the writer index and every untouched module's
 * matches are reused, so an edit re-matches only the modules it re-evaluated.
 */
export class ReferenceMatcher {
  private index: WriterIndex | undefined;
  /** The modules and matches of the last call, by position. */
  private lastModules: readonly EvaluatedModule[] = [];
  private lastMatches: readonly MatchResult[] = [];

  constructor(private readonly root: string) {}

  /** Each module's own matches, parallel to `modules`; the same object while a module's matches hold. */
  matchEach(modules: readonly EvaluatedModule[]): MatchResult[] {
    const reuse = this.index !== undefined && sameWriters(this.lastModules, modules);
    const index = reuse && this.index ? this.index : new WriterIndex(modules, this.root);
    const matches: MatchResult[] = new Array(modules.length);
    for (let n = 0; n < modules.length; n++) {
      const module = modules[n]!;
      matches[n] =
        reuse && this.lastModules[n] === module ? this.lastMatches[n]! : matchModule(module, index, this.root);
    }
    this.index = index;
    this.lastModules = modules;
    this.lastMatches = matches;
    return matches;
  }

  /**
   * The matches of `module` (a module of the last `matchEach`, evaluated again with other inputs)
   * against the writers of that call. Undefined before any call.
   */
  matchAgainstLast(module: EvaluatedModule): MatchResult | undefined {
    return this.index && matchModule(module, this.index, this.root);
  }

  /** Changes whenever the writers do: results of `matchAgainstLast` hold while it stays the same. */
  get writersVersion(): object | undefined {
    return this.index;
  }
}

/** True when `after` writes the same states as `before`, module by module. */
function sameWriters(before: readonly EvaluatedModule[], after: readonly EvaluatedModule[]): boolean {
  if (before.length !== after.length) return false;
  for (let n = 0; n < after.length; n++) {
    const was = before[n]!;
    const is = after[n]!;
    if (was !== is && (was.id !== is.id || writerSignature(was) !== writerSignature(is))) return false;
  }
  return true;
}
