import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { loadWorkspace } from '../../server/src/engine/analysis';
import { loadAnalysisOptions } from '../../server/src/engine/config';

/**
 * The contracts between states in Terraform's JSON syntax (test/fixtures/output-contracts-json): each read
 * of an output placed on its name in the JSON string (escapes before it counted), each `output` block on
 * its key, a read written `outputs[\"x\"]` or inside `format(\"…\")` found.
 */
const repo = path.resolve(__dirname, '../..');
const root = path.join(repo, 'test/fixtures/output-contracts-json');
const api = path.join(root, 'app/api/main.tf.json');

/** `line:column` (1-based) of the `nth` occurrence of `text` in the line of `file` that holds `marker`. */
function placeOf(file: string, marker: string, text: string): string {
  const lines = readFileSync(file, 'utf8').split('\n');
  const line = lines.findIndex((candidate) => candidate.includes(marker));
  assert.ok(line >= 0, marker);
  return `${line + 1}:${lines[line]!.indexOf(text, lines[line]!.indexOf(marker)) + 1}`;
}

describe('output contracts in .tf.json files', () => {
  test('terrace validate puts each missing output on its name in the JSON string', () => {
    const tsx = pathToFileURL(path.join(repo, 'node_modules/tsx/dist/loader.mjs')).href;
    const run = spawnSync(
      process.execPath,
      ['--import', tsx, path.join(repo, 'server/src/cli/cli.ts'), 'validate', root],
      {
        encoding: 'utf8',
      },
    );
    assert.equal(run.status, 1);
    assert.deepEqual(run.stderr.trim().split('\n'), [
      `Error: app/api/main.tf.json:${placeOf(api, '"label"', 'subnet_idz')}: network/vpc declares no output "subnet_idz"; did you mean "subnet_ids"?`,
      `Error: app/api/main.tf.json:${placeOf(api, '"tabbed"', 'vpc_idz')}: network/vpc declares no output "vpc_idz"; did you mean "vpc_id"?`,
    ]);
    // Both on lines of their own, not the file's first.
    assert.deepEqual(run.stderr.match(/json:(\d+):/g), ['json:26:', 'json:27:']);
  });

  test('every read found, `outputs[\\"vpc_id\\"]` with its escaped quotes, each on its place', async () => {
    const analysis = await loadWorkspace(root, await loadAnalysisOptions(root));
    const contracts = analysis.contracts();
    const uses = contracts.uses
      .filter((use) => use.file === api)
      .map(
        (use) =>
          `${use.range.start.line + 1}:${use.range.start.character + 1}-${use.range.end.character + 1} ${use.output}`,
      );
    const at = (marker: string, text: string, length: number) => {
      const [line, column] = placeOf(api, marker, text).split(':').map(Number);
      return `${line}:${column}-${column! + length} `;
    };
    assert.deepEqual(uses, [
      `${at('"vpc_id": "${', 'vpc_id}', 6)}vpc_id`,
      `${at('"quoted"', '\\"vpc_id\\"', 10)}vpc_id`,
      `${at('"label"', 'subnet_idz', 10)}subnet_idz`,
      `${at('"tabbed"', 'vpc_idz', 7)}vpc_idz`,
      `${at('"value": "${', 'vpc_id}', 6)}vpc_id`,
    ]);
    // The writer's output blocks on their keys, not on the local's string `"vpc_id"` before them.
    const vpc = path.join(root, 'network/vpc/main.tf.json');
    const declared = contracts.outputs
      .get('network/vpc')!
      .map(
        (output) =>
          `${output.name} ${output.nameRange.start.line + 1}:${output.nameRange.start.character + 1}-${output.nameRange.end.character + 1}`,
      );
    assert.deepEqual(declared, [
      `vpc_id ${placeOf(vpc, '"vpc_id": {', '"vpc_id"')}-13`,
      `subnet_ids ${placeOf(vpc, '"subnet_ids": {', '"subnet_ids"')}-17`,
    ]);
  });
});
