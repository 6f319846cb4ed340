import path from 'node:path';
import { failedNode, type NodeEvaluation, type NodeKind } from '../kinds';
import { type Environment, type EvaluatedModule, shallowModule } from '../workspace';
import { fileProblem, type ModuleSummary } from './analysisResult';

/**
 * The nodes' evaluations, each with the folders it read, and by folder the nodes that read it: a change
 * in a folder forgets the evaluations that read it at the cost of those alone (a scan of every node per
 * changed file made 2,000 deletions in a 5,000-root workspace take 31 s).
 */
export class NodeEvaluations {
  private readonly modules = new Map<string, EvaluatedModule>();
  private readonly readDirs = new Map<string, ReadonlySet<string>>();
  private readonly readers = new Map<string, Set<string>>();

  get(id: string): EvaluatedModule | undefined {
    return this.modules.get(id);
  }

  /** The folders the node's last evaluation read. */
  dirsRead(id: string): ReadonlySet<string> | undefined {
    return this.readDirs.get(id);
  }

  /** Evaluates a node of `kind` afresh, and keeps it with what it read. */
  evaluate(kind: NodeKind, id: string, environment: Environment | undefined): EvaluatedModule {
    const { module, read } = evaluationOf(kind, id, environment);
    this.forget(id);
    this.modules.set(id, module);
    this.readDirs.set(id, read);
    for (const folder of read) {
      const ids = this.readers.get(folder);
      if (ids) ids.add(id);
      else this.readers.set(folder, new Set([id]));
    }
    return module;
  }

  /** Forgets a node's evaluation: it is evaluated again when next asked for. */
  forget(id: string): void {
    this.modules.delete(id);
    for (const folder of this.readDirs.get(id) ?? []) {
      const ids = this.readers.get(folder);
      ids?.delete(id);
      if (ids?.size === 0) this.readers.delete(folder);
    }
    this.readDirs.delete(id);
  }

  /** Forgets the evaluation of every node that read `folder`. */
  forgetReadersOf(folder: string): void {
    for (const id of [...(this.readers.get(folder) ?? [])]) this.forget(id);
  }

  /** Forgets the evaluations of nodes that are no longer among `ids`. */
  keepOnly(ids: ReadonlyMap<string, number>): void {
    for (const id of [...this.modules.keys()]) if (!ids.has(id)) this.forget(id);
  }

  clear(): void {
    this.modules.clear();
    this.readDirs.clear();
    this.readers.clear();
  }
}

/** A node evaluated, its values shallow enough to match; one whose evaluation threw is a failed node, on its own folder. */
export function evaluationOf(kind: NodeKind, id: string, environment: Environment | undefined): NodeEvaluation {
  try {
    const evaluation = kind.evaluate(id, environment);
    shallowModule(evaluation.module);
    return evaluation;
  } catch (error) {
    // One module's input must not take the analysis (and the language server) down with it.
    const module = failedNode(id, kind, error);
    return { module, read: new Set([path.dirname(module.problems[0]!.file)]) };
  }
}

/** What Terrace could not evaluate of a module, for its summary: absent when it evaluated all of it. */
export function notEvaluated(module: EvaluatedModule): Pick<ModuleSummary, 'notEvaluated'> {
  const errors = module.problems.filter((problem) => problem.error === 'not-evaluated').map(fileProblem);
  return errors.length > 0 ? { notEvaluated: errors } : {};
}
