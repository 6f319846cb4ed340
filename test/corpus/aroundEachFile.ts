import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { loadWorkspace } from '../../server/src/engine/analysis';
import { loadAnalysisOptions } from '../../server/src/engine/config';
import type { OutputContracts } from '../../server/src/engine/contracts';
import {
  type OutputIndex,
  outputBlockHover,
  outputCompletions,
  outputDefinitions,
  outputIndex,
  outputLenses,
  outputsReadLine,
  outputUseHover,
  referenceOutcomesAt,
} from '../../server/src/engine/features';

/**
 * The contracts around a file (`WorkspaceAnalysis.contractsAround`), which the editor's requests about that file
 * use until the workspace's are worked out, against the whole contracts: for every configuration file of a
 * workspace, what its hovers, definitions, code lenses, completions and blocks' outputs read answer. Used by the
 * unit tests on fixtures and by `npm run corpus` on real monorepos:
 * `node --import tsx test/corpus/aroundEachFile.ts DIR` prints one JSON line.
 */

export interface AroundEachFile {
  files: number;
  /** The answers compared, and of them the uses' completions that offer something and the blocks' outputs read. */
  answers: number;
  completions: number;
  reads: number;
  uses: number;
  declarations: number;
  /** The files whose answers around them differ from the whole contracts', relative to the workspace. */
  differ: string[];
}

const textOf = (file: string) => readFileSync(file, 'utf8');

/** What the requests about `file` answer from an index, at each use, `output` block and state read of the whole contracts. */
function answers(index: OutputIndex, whole: OutputContracts, file: string): Record<string, unknown>[] {
  const lines = textOf(file).split('\n');
  const uses = whole.uses.filter((use) => use.file === file);
  const declarations = [...whole.outputs.values()].flat().filter((output) => output.file === file);
  const blocks = index.result.edges.filter((edge) => edge.reference.file === file).map((edge) => edge.reference.range);
  return [
    ...uses.map((use) => {
      const at = use.range.start;
      const prefix = (lines[at.line] ?? '').slice(0, at.character);
      return {
        at,
        hover: outputUseHover(index, file, at, textOf),
        definitions: outputDefinitions(index, file, at),
        completions: outputCompletions(index, file, prefix, textOf).map((item) => item.name),
      };
    }),
    ...declarations.map((output) => ({
      at: output.range.start,
      hover: outputBlockHover(index, file, output.range.start),
    })),
    ...blocks.map((range) => ({
      at: range.start,
      read: outputsReadLine(index, referenceOutcomesAt(index.result, file, range.start)),
    })),
    { lenses: outputLenses(index, file) },
  ];
}

/** The workspace's configuration files, as the engine reads them. */
function configurationFiles(root: string): string[] {
  return readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.(tf|tf\.json|tofu|tofu\.json|hcl)$/.test(file) && !/(^|\/)\.(git|terraform)\//.test(file))
    .map((file) => path.join(root, file))
    .sort();
}

/** Each file's answers around it, asked before the whole contracts are, against theirs. */
export async function aroundEachFile(root: string): Promise<AroundEachFile> {
  const analysis = await loadWorkspace(root, await loadAnalysisOptions(root));
  const result = analysis.result();
  const files = configurationFiles(root);
  const around = new Map(files.map((file) => [file, analysis.contractsAround([file])]));
  const whole = analysis.contracts();
  const found: AroundEachFile = {
    files: 0,
    answers: 0,
    completions: 0,
    reads: 0,
    uses: 0,
    declarations: 0,
    differ: [],
  };
  for (const file of files) {
    const expected = answers(outputIndex(result, whole), whole, file);
    try {
      assert.deepEqual(answers(outputIndex(result, around.get(file)!), whole, file), expected);
    } catch {
      found.differ.push(path.relative(root, file));
    }
    found.files++;
    found.answers += expected.length;
    found.completions += expected.filter((answer) => (answer.completions as string[] | undefined)?.length).length;
    found.reads += expected.filter((answer) => answer.read !== undefined).length;
  }
  found.uses = whole.uses.length;
  found.declarations = [...whole.outputs.values()].flat().length;
  return found;
}

if (process.argv[1] && path.basename(process.argv[1]).startsWith('aroundEachFile')) {
  void aroundEachFile(path.resolve(process.argv[2]!)).then((found) =>
    process.stdout.write(`${JSON.stringify(found)}\n`),
  );
}
