import path from 'node:path';
import { folderRelative } from '../../evaluation';
import { type MatchResult, withDependencies } from '../../state';
import {
  type EvaluatedUnit,
  evaluateUnit,
  STACK_FILE,
  UNIT_FILE,
  type UnitSource,
  withGeneratedUnits,
} from '../../terragrunt';
import {
  type DiscoveredUnits,
  discoverUnits,
  type EvaluatedModule,
  evaluateUnitModule,
  type FileFacts,
  includedBy,
  NO_UNITS,
} from '../../workspace';
import { childModules, fileInputs, workingReads } from '../moduleFiles';
import type { FoundNodes, KindProblem, KindWorkspace, NodeDescription, NodeEvaluation, NodeKind } from '../nodeKind';

/** Terragrunt's units: folders whose `terragrunt.hcl` has Terraform code to run, and the units of stack files. */
export class TerragruntUnitKind implements NodeKind {
  readonly name = 'unit';
  /** A unit has no environments of its own (no tfvars of its own: its inputs are its variables). */
  readonly hasEnvironments = false;
  private units: DiscoveredUnits = NO_UNITS;
  /** Discovery's evaluation of each unit (the same as the analysis's), until a file changes: not done twice. */
  private unitsAsDiscovered: ReadonlyMap<string, EvaluatedUnit> = new Map();
  private unitSourceMemo: { units: DiscoveredUnits; source: UnitSource } | undefined;
  /** `dependency` edges added to a unit's matches, while the nodes' numbers hold. */
  private readonly withDependencyCache = new WeakMap<MatchResult, { numbers: object; result: MatchResult }>();

  constructor(private readonly workspace: KindWorkspace) {}

  /**
   * A Terragrunt file's includes, Terraform source and stack blocks: which units there are, and which
   * folders are their code. A changed `dependency` or input only re-evaluates its units.
   */
  nodesKey(facts: FileFacts): string {
    const terragrunt = facts.terragrunt;
    return terragrunt
      ? withoutRanges([
          terragrunt.includes.map((include) => include.path),
          terragrunt.source?.expr,
          terragrunt.stackEntries,
        ])
      : '';
  }

  discover(): FoundNodes {
    this.units = discoverUnits(this.workspace.dirs(), this.unitFiles);
    this.unitsAsDiscovered = this.units.evaluated;
    const isIncluded = includedBy(this.workspace.options.discovery);
    // A stack file's values reach its units without a file of theirs: evaluated again with the stacks.
    return {
      ids: [...this.units.ids].filter(isIncluded),
      codeDirs: this.units.codeDirs,
      stale: [...this.units.generated.keys()],
    };
  }

  /** Its configuration with what it includes, then its Terraform code with its inputs. */
  evaluate(id: string): NodeEvaluation {
    // A unit of a stack file lives where `terragrunt stack generate` puts it; its configuration is its source's.
    const generated = this.units.generated.get(id);
    const folder = generated?.dir ?? this.workspace.dirs().get(id)!.dir;
    const unit =
      this.unitsAsDiscovered.get(id) ??
      evaluateUnit(path.join(folder, UNIT_FILE), this.unitSource, generated?.values ?? null);
    // Where it looked too: a root.hcl created above it, say, is found by find_in_parent_folders().
    const read = new Set<string>([folder, ...unit.read.map((file) => path.dirname(file)), ...unit.lookedIn]);
    if (generated) read.add(path.dirname(generated.source));
    const code = unit.codeDir === undefined ? undefined : this.workspace.dirOf(unit.codeDir);
    if (unit.codeDir !== undefined) read.add(unit.codeDir);
    const module = evaluateUnitModule(
      {
        id,
        unit,
        code: fileInputs(this.workspace, code?.tfFiles ?? []),
        terraformWorkspace: this.workspace.options.terraformWorkspace,
        backendConfig: this.workspace.options.backendConfig,
        reads: generated
          ? [
              ...workingReads(folder),
              {
                target: { kind: 'file', path: path.join(generated.stackDir, STACK_FILE) },
                how: 'the stack that makes it',
              },
            ]
          : workingReads(folder),
      },
      childModules(this.workspace, read),
    );
    return { module, read };
  }

  differsIn(): boolean {
    return false;
  }

  placeOf(id: string): { dir: string; file: string } {
    const dir = this.workspace.dirs().get(id)?.dir ?? path.join(this.workspace.root, id);
    return { dir, file: path.join(dir, UNIT_FILE) };
  }

  /** Its `dependency` blocks as edges to the units of their folders; cached per matches while the numbers hold. */
  withEdges(module: EvaluatedModule, own: MatchResult, numbers: ReadonlyMap<string, number>): MatchResult {
    if (module.dependencies.length === 0) return own;
    const cached = this.withDependencyCache.get(own);
    if (cached && cached.numbers === numbers) return cached.result;
    const units = this.units.ids;
    const unitAt = (dir: string): string | undefined => {
      const id = folderRelative(this.workspace.root, dir);
      return units.has(id) && numbers.has(id) ? id : undefined;
    };
    const result = withDependencies(module, own, unitAt);
    this.withDependencyCache.set(own, { numbers, result });
    return result;
  }

  /** A unit of a stack file opens at the stack file that declares it, where `terragrunt stack generate` makes it. */
  describe(module: EvaluatedModule): NodeDescription {
    const generated = this.units.generated.get(module.id);
    const shown = generated
      ? { firstFile: path.join(generated.stackDir, STACK_FILE), stackDir: generated.stackDir }
      : { firstFile: path.join(module.dir, UNIT_FILE) };
    return { folder: module.id, shown };
  }

  /** Any file changed: discovery's evaluations of the units are no longer taken. */
  forget(): void {
    this.unitsAsDiscovered = new Map();
  }

  environmentNames(): readonly string[] {
    return [];
  }

  /** What the stack files say that cannot be expanded. */
  problems(): readonly KindProblem[] {
    return this.units.problems;
  }

  /** The Terragrunt files of the workspace as they are on disk (and in open editors). */
  private get unitFiles(): UnitSource {
    return {
      workspaceRoot: this.workspace.root,
      gitRoots: this.workspace.gitRoots(),
      configOf: (file) => this.workspace.factsOf(file)?.terragrunt,
      exists: (file) => this.workspace.hasFile(file),
    };
  }

  /** The Terragrunt files of the workspace with the units stacks generate, for units' evaluation. */
  private get unitSource(): UnitSource {
    // Kept while the units and git roots stay: built afresh for each unit, 10,000 generated units took a minute.
    const memo = this.unitSourceMemo;
    if (memo?.units === this.units && memo.source.gitRoots === this.workspace.gitRoots()) return memo.source;
    const source = withGeneratedUnits(this.unitFiles, this.units.generated.values());
    this.unitSourceMemo = { units: this.units, source };
    return source;
  }
}

/** Expressions as text without their places: the same when only lines moved. */
function withoutRanges(value: unknown): string {
  return (
    JSON.stringify(value, (key, inner: unknown) => (key === 'range' || key === 'headerRange' ? undefined : inner)) ?? ''
  );
}
