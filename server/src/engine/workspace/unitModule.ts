import path from 'node:path';
import { type FileRead, isUnknown } from '../evaluation';
import { parseHcl } from '../hcl';
import type { EvaluatedUnit } from '../terragrunt';
import type { ChildModules, EvaluatedModule, FileInput, ModuleBackend } from './evaluatedModule';
import { factsFromDocument, keepBody } from './fileFacts';
import type { GeneratedOutput } from './generatedOutputs';
import { evaluateModule } from './moduleEvaluation';

export interface UnitInput {
  id: string;
  unit: EvaluatedUnit;
  /** The `.tf` files of the unit's local Terraform code (`unit.codeDir`); empty for a remote source. */
  code: readonly FileInput[];
  terraformWorkspace: string | undefined;
  backendConfig?: Readonly<Record<string, string>>;
  /** What the unit's folder holds that Terragrunt reads (see `workingReads`); its kind knows. */
  reads: readonly FileRead[];
}

/**
 * A Terragrunt unit as a root module: its Terraform code (local source, or its own folder)
 * evaluated with the unit's inputs as variables and the files its `generate` blocks write; its
 * backend from `remote_state` when it has one (Terragrunt passes it to `terraform init`), else the
 * code's; its `dependency` blocks kept for the graph.
 */
export function evaluateUnitModule(input: UnitInput, children: ChildModules): EvaluatedModule {
  const { unit } = input;
  const generated: FileInput[] = unit.generated.map(({ file, text }) => ({
    file,
    facts: factsFromDocument(parseHcl(text, { keepBody })),
  }));
  const generatedOutputs = unit.generated.flatMap(({ from }, i): GeneratedOutput[] =>
    generated[i]!.facts.outputs.map(({ name, description, sensitive }) => ({ name, description, sensitive, ...from })),
  );
  const code = evaluateModule(
    {
      id: input.id,
      dir: unit.codeDir ?? unit.dir,
      files: [...input.code.filter((file) => !generated.some((own) => own.file === file.file)), ...generated],
      varFiles: [],
      backendFiles: [],
      terraformWorkspace: input.terraformWorkspace,
      variables: unit.inputs,
      backendConfig: input.backendConfig,
      reads: unitReads(unit, input.reads),
    },
    children,
  );
  const problems = [...unit.problems, ...code.problems];
  return {
    id: input.id,
    dir: unit.dir,
    kind: 'unit',
    backend: remoteStateBackend(unit, problems) ?? code.backend,
    // Terragrunt runs terraform in a copy of the code: local paths are the unit's.
    references: code.references.map((reference) => ({ ...reference, cwd: unit.dir })),
    dependencies: unit.dependencies,
    sourceDirs: sourceDirs(unit),
    ...(unit.codeDir !== undefined ? { codeDir: unit.codeDir } : {}),
    ...(generatedOutputs.length > 0 ? { generatedOutputs } : {}),
    problems,
    reads: code.reads,
  };
}

/** What a unit reads: its folder's files, its Terraform code's folder, and what its configuration reads. */
function unitReads(unit: EvaluatedUnit, own: readonly FileRead[]): FileRead[] {
  const code: FileRead[] =
    unit.codeDir === undefined || unit.codeDir === unit.dir
      ? []
      : [{ target: { kind: 'folder', dir: unit.codeDir, files: 'code' }, how: 'terraform { source }' }];
  return [...own, ...code, ...unit.reads];
}

/** The folders besides the unit's own whose files change its plan: its code's, its included and read files'. */
function sourceDirs(unit: EvaluatedUnit): string[] {
  const dirs = new Set([unit.writtenIn, ...unit.read].map((file) => path.dirname(file)));
  if (unit.codeDir !== undefined) dirs.add(unit.codeDir);
  dirs.delete(unit.dir);
  return [...dirs].sort();
}

function remoteStateBackend(unit: EvaluatedUnit, problems: EvaluatedModule['problems']): ModuleBackend | undefined {
  const backend = unit.backend;
  if (!backend) return undefined;
  if (isUnknown(backend.type)) {
    problems.push({
      file: backend.file,
      range: backend.headerRange,
      message: `remote_state backend is not known: ${backend.type.reasons.join('; ')}`,
    });
    return undefined;
  }
  return {
    type: backend.type,
    file: backend.file,
    range: backend.range,
    headerRange: backend.headerRange,
    configs: [{ config: backend.config, from: undefined }],
  };
}
