import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { loadWorkspace, type WorkspaceAnalysis } from '../../server/src/engine/analysis';
import { loadAnalysisOptions } from '../../server/src/engine/config';
import type { OutputContracts } from '../../server/src/engine/contracts';

/**
 * The contracts worked out a step at a time (as the language server does, answering requests between
 * steps) are the contracts worked out at once.
 */
const ROOTS = 250;
const temporary: string[] = [];
after(() => {
  for (const dir of temporary) rmSync(dir, { recursive: true, force: true });
});

function config(key: string): string {
  return `bucket = "acme-state"\n    key    = "${key}"\n    region = "eu-west-1"`;
}

/** Roots that each read the one before and use two of its outputs, one of which nobody declares. */
function chain(): string {
  const root = mkdtempSync(path.join(os.tmpdir(), 'terrace-contract-steps-'));
  temporary.push(root);
  for (let index = 0; index < ROOTS; index++) {
    const dir = path.join(root, `r${index}`);
    mkdirSync(dir);
    const read =
      index === 0
        ? ''
        : `data "terraform_remote_state" "up" {\n  backend = "s3"\n  config = {\n    ${config(`r${index - 1}`)}\n  }\n}\n` +
          `locals {\n  id   = data.terraform_remote_state.up.outputs.id\n  gone = data.terraform_remote_state.up.outputs.gone_${index}\n}\n`;
    writeFileSync(
      path.join(dir, 'main.tf'),
      `terraform {\n  backend "s3" {\n    ${config(`r${index}`)}\n  }\n}\noutput "id" {\n  value = "${index}"\n}\n${read}`,
    );
  }
  return root;
}

async function analysed(root: string): Promise<WorkspaceAnalysis> {
  return loadWorkspace(root, await loadAnalysisOptions(root));
}

/** What the contracts say, as plain values. */
function summary(analysis: WorkspaceAnalysis, contracts: OutputContracts) {
  return {
    uses: contracts.uses.map((use) => `${use.reader} ${use.output} -> ${use.writers.map((w) => w.id).join(',')}`),
    problems: contracts.problems.map((problem) => `${path.basename(path.dirname(problem.file))} ${problem.message}`),
    along: analysis.result().edges.map((edge) => contracts.outputsAlong(edge).join(',')),
  };
}

describe('the contracts a step at a time', () => {
  test('the steps, each some nodes’ part, end with the contracts worked out at once', async () => {
    const root = chain();
    const whole = await analysed(root);
    const expected = summary(whole, whole.contracts());
    assert.equal(expected.problems.length, ROOTS - 1);
    assert.equal(expected.along[0], 'gone_1,id');

    const stepped = await analysed(root);
    const steps = stepped.contractSteps();
    let taken = 0;
    let step = steps.next();
    for (; !step.done; step = steps.next()) taken++;
    assert.ok(taken >= 4, `${taken} steps for ${ROOTS} roots`);
    assert.deepEqual(summary(stepped, step.value), expected);
    // Kept: asked again, the contracts are the same object, at once.
    assert.equal(stepped.contracts(), step.value);
    assert.equal(stepped.contractSteps().next().done, true);
  });

  test('asked whole while the steps are under way, the contracts are finished at once and the steps end with them', async () => {
    const root = chain();
    const analysis = await analysed(root);
    const steps = analysis.contractSteps();
    assert.equal(steps.next().done, false);
    assert.equal(steps.next().done, false);
    const asked = analysis.contracts();
    const last = steps.next();
    assert.equal(last.done, true);
    assert.equal(last.value, asked);
    const whole = await analysed(root);
    assert.deepEqual(summary(analysis, asked), summary(whole, whole.contracts()));
  });
});
