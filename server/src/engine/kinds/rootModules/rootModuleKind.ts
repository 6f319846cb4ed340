import path from 'node:path';
import type { MatchResult } from '../../state';
import {
  discoverRoots,
  EMPTY_FACTS,
  type Environment,
  type EvaluatedModule,
  emptyPatternHint,
  evaluateModule,
  type FileFacts,
  localSource,
  type ScannedDir,
} from '../../workspace';
import { childModules, fileInputs, workingReads } from '../moduleFiles';
import type { FoundNodes, KindProblem, KindWorkspace, NodeDescription, NodeEvaluation, NodeKind } from '../nodeKind';

/** What an environment decides of a root's evaluation. */
interface EnvironmentInputs {
  varFiles: readonly string[];
  backendFiles: readonly string[];
  terraformWorkspace: string | undefined;
  variables: Environment['variables'] | undefined;
}

/** Terraform's root modules: folders whose files declare a backend, or that the discovery pattern names. */
export class RootModuleKind implements NodeKind {
  readonly name = 'module';
  readonly hasEnvironments = true;
  /** Why a TerraCi pattern found no module, when Terrace's own discovery would (see `emptyPatternHint`). */
  private discoveryHint: { file: string; message: string } | undefined;

  constructor(private readonly workspace: KindWorkspace) {}

  /** Its backends and the local sources of its module calls: which folders are roots, and which are called. */
  nodesKey(facts: FileFacts): string {
    const sources = facts.moduleCalls.map((call) => localSource(call.source) ?? '');
    return `${facts.backends.length > 0}|${sources.join('|')}`;
  }

  discover(before: readonly FoundNodes[]): FoundNodes {
    const dirs = this.workspace.dirs();
    const options = this.workspace.options.discovery;
    const factsOf = (dir: ScannedDir) => dir.tfFiles.map((file) => this.workspace.factsOf(file) ?? EMPTY_FACTS);
    const claimed = {
      ids: new Set(before.flatMap((found) => found.ids)),
      codeDirs: new Set(before.flatMap((found) => [...found.codeDirs])),
    };
    const ids = discoverRoots(dirs, factsOf, options, claimed);
    this.discoveryHint = emptyPatternHint(dirs, factsOf, options, claimed, ids);
    return { ids, codeDirs: new Set(), stale: [] };
  }

  /** A root evaluated in `environment` (none: every backend file, no variables). */
  evaluate(id: string, environment: Environment | undefined): NodeEvaluation {
    const dir = this.workspace.dirs().get(id)!;
    const { options } = this.workspace;
    // The folders whose changes re-evaluate this root: its own, and those of backend files kept in its sub-folders.
    const read = new Set<string>([dir.dir, ...dir.backendFiles.map((file) => path.dirname(file))]);
    const given = this.environmentInputs(dir, environment);
    const module = evaluateModule(
      {
        id,
        dir: dir.dir,
        files: fileInputs(this.workspace, dir.tfFiles),
        varFiles: fileInputs(this.workspace, given.varFiles),
        backendFiles: fileInputs(this.workspace, given.backendFiles),
        terraformWorkspace: given.terraformWorkspace,
        variables: given.variables,
        backendConfig: options.backendConfig,
        engine: this.workspace.engine(),
        reads: workingReads(dir.dir, dir.backendFiles),
      },
      childModules(this.workspace, read),
    );
    return { module, read };
  }

  /** What `evaluate` takes from the environment differs from what it takes in none. */
  differsIn(id: string, environment: Environment): boolean {
    const dir = this.workspace.dirs().get(id)!;
    const none = this.environmentInputs(dir, undefined);
    const given = this.environmentInputs(dir, environment);
    // An environment only adds var files and leaves backend files out: their counts tell.
    return (
      given.varFiles.length !== none.varFiles.length ||
      given.backendFiles.length !== none.backendFiles.length ||
      given.terraformWorkspace !== none.terraformWorkspace ||
      (given.variables?.size ?? 0) > 0
    );
  }

  /** The inputs of a root's evaluation that its environment decides (none: every backend file, no variables). */
  private environmentInputs(dir: ScannedDir, environment: Environment | undefined): EnvironmentInputs {
    const chosen = environment?.inputs(dir);
    return {
      // Terraform's order: terraform.tfvars, *.auto.tfvars, then the -var-files in the order given.
      varFiles: chosen ? [...dir.varFiles, ...chosen.varFiles] : dir.varFiles,
      backendFiles: chosen ? chosen.backendFiles : dir.backendFiles,
      terraformWorkspace: environment?.workspace ?? this.workspace.options.terraformWorkspace,
      variables: environment?.variables,
    };
  }

  placeOf(id: string): { dir: string; file: string } {
    const found = this.workspace.dirs().get(id);
    const dir = found?.dir ?? path.join(this.workspace.root, id);
    return { dir, file: found?.tfFiles[0] ?? dir };
  }

  withEdges(_module: EvaluatedModule, own: MatchResult): MatchResult {
    return own;
  }

  describe(module: EvaluatedModule): NodeDescription {
    return { folder: module.id, shown: { firstFile: this.workspace.dirs().get(module.id)!.tfFiles[0]! } };
  }

  forget(): void {}

  environmentNames(): readonly string[] {
    return [];
  }

  problems(): readonly KindProblem[] {
    return this.discoveryHint ? [{ ...this.discoveryHint, range: undefined }] : [];
  }
}
