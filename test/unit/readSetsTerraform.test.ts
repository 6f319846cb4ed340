import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { changeReach, WorkspaceAnalysis } from '../../server/src/engine/analysis';
import { defaultOptions } from '../../server/src/engine/config';

/**
 * The claim under a read set, with the real terraform, offline: for each kind of read of the read-sets
 * fixture, a change to the file it reads makes `terraform plan` of the root show a change, and Terrace's
 * reach of that file holds the root; a file the root does not read changes neither.
 */
const FIXTURE = path.resolve(__dirname, '../fixtures/read-sets');
const APP = 'roots/app';
const TF_ENV = { ...process.env, TF_IN_AUTOMATION: '1', TF_INPUT: '0', CHECKPOINT_DISABLE: '1' };
let scratch: string;
let deployed: string;
let copies = 0;

before(() => {
  scratch = mkdtempSync(path.join(os.tmpdir(), 'terrace-reads-tf-'));
  deployed = path.join(scratch, 'deployed');
  cpSync(FIXTURE, deployed, { recursive: true });
  const cwd = path.join(deployed, APP);
  execFileSync('terraform', ['init', '-input=false', '-no-color'], { cwd, env: TF_ENV, stdio: 'ignore' });
  execFileSync('terraform', ['apply', '-auto-approve', '-input=false', '-no-color'], {
    cwd,
    env: TF_ENV,
    stdio: 'ignore',
  });
});
after(() => rmSync(scratch, { recursive: true, force: true }));

/** A change to one file: text appended (a new file when there is none), or the file's whole new text. */
type Change = string | { text: string };

/**
 * A copy of the applied fixture with `change` made to it (paths relative to the fixture): `terraform plan
 * -detailed-exitcode`'s exit code for the root (2: changes), and the modules Terrace's reach of the changed
 * files holds.
 */
async function afterChange(change: Record<string, Change>): Promise<{ plan: number | null; reached: string[] }> {
  const root = path.join(scratch, `copy-${++copies}`);
  cpSync(deployed, root, { recursive: true });
  for (const [file, text] of Object.entries(change)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    if (typeof text === 'string') appendFileSync(path.join(root, file), text);
    else writeFileSync(path.join(root, file), text.text);
  }
  const plan = spawnSync('terraform', ['plan', '-detailed-exitcode', '-input=false', '-lock=false', '-no-color'], {
    cwd: path.join(root, APP),
    env: TF_ENV,
    encoding: 'utf8',
  });
  const analysis = new WorkspaceAnalysis(root, defaultOptions());
  await analysis.load();
  const reach = changeReach(analysis.result(), Object.keys(change));
  return { plan: plan.status, reached: [...reach.reached.keys()] };
}

describe('a read file changed: terraform plans a change, and Terrace reaches the root', () => {
  const cases: [string, Record<string, Change>][] = [
    ['its own configuration file', { [`${APP}/main.tf`]: '\nresource "terraform_data" "added" {\n  input = 1\n}\n' }],
    ['terraform.tfvars', { [`${APP}/terraform.tfvars`]: { text: 'name = "renamed"\n' } }],
    ['a new *.auto.tfvars', { [`${APP}/override.auto.tfvars`]: 'name = "auto"\n' }],
    ['file() of a path outside its folder, from path.module', { 'policies/app.tpl': 'deny one\n' }],
    ['templatefile()', { [`${APP}/templates/boot.tpl`]: 'echo more\n' }],
    ['a file added where fileset() matches', { [`${APP}/configs/b.json`]: '{"b": 2}\n' }],
    ['a file fileexists() asks for, created', { [`${APP}/flags/enabled`]: 'yes\n' }],
    ['filesha256()', { 'policies/app.pub': 'ssh-ed25519 BBBB other\n' }],
    [
      "a child module's own file",
      { 'modules/rules/main.tf': '\nresource "terraform_data" "more" {\n  input = 2\n}\n' },
    ],
    [
      "path.module in a child module: the child's folder",
      { 'modules/rules/rules.json': { text: '{"allow": ["b"]}\n' } },
    ],
    ["a relative path in a child module: from the root's folder", { [`${APP}/config.yaml`]: 'extra: 2\n' }],
  ];
  for (const [what, change] of cases) {
    test(what, async () => {
      const { plan, reached } = await afterChange(change);
      assert.equal(plan, 2, 'terraform plan shows a change');
      assert.deepEqual(reached, [APP]);
    });
  }

  test('files the root does not read: no change in the plan, and no module reached', async () => {
    const { plan, reached } = await afterChange({
      [`${APP}/README.md`]: 'more\n',
      'policies/README.md': 'more\n',
      'modules/config/config.yaml': 'level: 9\n',
      [`${APP}/configs/notes.txt`]: 'not json\n',
    });
    assert.equal(plan, 0, 'terraform plan shows no change');
    assert.deepEqual(reached, []);
  });
});
