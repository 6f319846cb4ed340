import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { analyzeDirectory } from '../../server/src/engine/analysis';
import { unknown } from '../../server/src/engine/evaluation';
import { type AddressInput, moduleIdFromKey, stateAddress } from '../../server/src/engine/state';

const base = { workspace: 'default', moduleDir: '/repo/app/api', root: '/repo' };
function address(input: Partial<AddressInput> & Pick<AddressInput, 'type' | 'config'>): string {
  const result = stateAddress({ ...base, ...input });
  if (!result.known) throw new Error(`unknown: ${result.reasons.join('; ')}`);
  return result.address;
}

describe('state addresses', () => {
  test('s3: bucket and key; other workspaces under workspace_key_prefix (default env:)', () => {
    const config = { bucket: 'acme', key: 'network/vpc/terraform.tfstate' };
    assert.equal(address({ type: 's3', config }), 's3://acme/network/vpc/terraform.tfstate');
    assert.equal(
      address({ type: 's3', config, workspace: 'staging' }),
      's3://acme/env:/staging/network/vpc/terraform.tfstate',
    );
    assert.equal(
      address({ type: 's3', config: { ...config, workspace_key_prefix: 'workspaces' }, workspace: 'staging' }),
      's3://acme/workspaces/staging/network/vpc/terraform.tfstate',
    );
  });

  test('gcs: prefix/<workspace>.tfstate', () => {
    assert.equal(
      address({ type: 'gcs', config: { bucket: 'b', prefix: 'net/vpc/' } }),
      'gcs://b/net/vpc/default.tfstate',
    );
    assert.equal(address({ type: 'gcs', config: { bucket: 'b' }, workspace: 'prod' }), 'gcs://b/prod.tfstate');
  });

  test('azurerm: storage account and container are part of the address; workspaces are a key suffix', () => {
    const config = { storage_account_name: 'acct1', container_name: 'tfstate', key: 'prod.tfstate' };
    assert.equal(address({ type: 'azurerm', config }), 'azurerm://acct1/tfstate/prod.tfstate');
    assert.equal(
      address({ type: 'azurerm', config, workspace: 'stage' }),
      'azurerm://acct1/tfstate/prod.tfstateenv:stage',
    );
  });

  test('local: paths resolve against the running module and show relative to the root', () => {
    assert.equal(
      address({ type: 'local', config: { path: '../vpc/terraform.tfstate' } }),
      'local://app/vpc/terraform.tfstate',
    );
    assert.equal(address({ type: 'local', config: {} }), 'local://app/api/terraform.tfstate');
    assert.equal(
      address({ type: 'local', config: {}, workspace: 'w' }),
      'local://app/api/terraform.tfstate.d/w/terraform.tfstate',
    );
  });

  test('remote and cloud: organization and workspace name, or prefix plus workspace', () => {
    assert.equal(
      address({ type: 'remote', config: { organization: 'acme', workspaces: { name: 'net' } } }),
      'remote://app.terraform.io/acme/net',
    );
    assert.equal(
      address({
        type: 'remote',
        config: { hostname: 'tfe.example.com', organization: 'acme', workspaces: [{ prefix: 'net-' }] },
        workspace: 'prod',
      }),
      'remote://tfe.example.com/acme/net-prod',
    );
  });

  test('a partial or unknown configuration is unknown, with the reasons', () => {
    const partial = stateAddress({ ...base, type: 's3', config: {} });
    assert.deepEqual(partial, {
      known: false,
      reasons: ['the s3 backend configuration sets no bucket', 'the s3 backend configuration sets no key'],
      key: undefined,
    });
    const unknownKey = stateAddress({
      ...base,
      type: 's3',
      config: { bucket: 'b', key: unknown('var.stack has no default') },
    });
    assert.deepEqual(unknownKey, { known: false, reasons: ['key: var.stack has no default'], key: undefined });
  });

  test('other backends compare by their whole configuration', () => {
    assert.equal(
      address({ type: 'consul', config: { path: 'x', address: 'c:8500' } }),
      'consul://address=c:8500,path=x',
    );
  });
});

describe('path convention', () => {
  test('key minus terraform.tfstate, .tfstate and env:/<workspace>/ is the module id', () => {
    assert.equal(moduleIdFromKey('network/vpc/terraform.tfstate'), 'network/vpc');
    assert.equal(moduleIdFromKey('network/vpc.tfstate'), 'network/vpc');
    assert.equal(moduleIdFromKey('env:/stage/network/vpc/terraform.tfstate'), 'network/vpc');
  });
});

describe("a root with no backend block: Terraform's default local state", () => {
  /** Real terraform in `dir`, offline. */
  function terraform(dir: string, ...args: string[]): string {
    const run = spawnSync('terraform', args, {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, TF_CLI_CONFIG_FILE: '/dev/null', CHECKPOINT_DISABLE: '1', TF_IN_AUTOMATION: '1' },
    });
    assert.equal(run.status, 0, `terraform ${args.join(' ')} in ${dir}: ${run.stderr}`);
    return run.stdout;
  }

  test('is terraform.tfstate in its folder (terraform.tfstate.d/<workspace>/ in another): its readers resolve to it', async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'terrace-default-state-'));
    try {
      const write = (file: string, text: string) => {
        mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
        writeFileSync(path.join(root, file), text);
      };
      // No backend block: a root by its lock file, as `terraform init` leaves one.
      write('x/.terraform.lock.hcl', '# This file is maintained automatically by "terraform init".\n');
      write(
        'x/main.tf',
        'resource "terraform_data" "x" {\n  input = terraform.workspace\n}\noutput "id" {\n  value = terraform_data.x.output\n}\n',
      );
      const read = (config: string, workspace = '') =>
        `terraform {\n  backend "local" {}\n}\ndata "terraform_remote_state" "x" {\n  backend = "local"\n${workspace}  config  = ${config}\n}\noutput "x" {\n  value = data.terraform_remote_state.x.outputs.id\n}\n`;
      write('y/main.tf', read('{ path = "../x/terraform.tfstate" }'));
      write('z/main.tf', read('{ workspace_dir = "../x/terraform.tfstate.d" }', '  workspace = "prod"\n'));

      // Where terraform puts them, and the readers read them.
      const x = path.join(root, 'x');
      terraform(x, 'init', '-input=false');
      terraform(x, 'apply', '-input=false', '-auto-approve');
      terraform(x, 'workspace', 'new', 'prod');
      terraform(x, 'apply', '-input=false', '-auto-approve');
      assert.ok(existsSync(path.join(x, 'terraform.tfstate')));
      assert.ok(existsSync(path.join(x, 'terraform.tfstate.d/prod/terraform.tfstate')));
      for (const [reader, value] of [
        ['y', 'default'],
        ['z', 'prod'],
      ] as const) {
        const dir = path.join(root, reader);
        terraform(dir, 'init', '-input=false');
        terraform(dir, 'apply', '-input=false', '-auto-approve');
        assert.equal(terraform(dir, 'output', '-raw', 'x'), value);
      }

      const result = await analyzeDirectory(root);
      assert.deepEqual(
        result.edges.map((edge) => [edge.from, edge.to, edge.address, edge.match]),
        [
          ['y', 'x', 'local://x/terraform.tfstate', 'exact'],
          ['z', 'x', 'local://x/terraform.tfstate.d/prod/terraform.tfstate', 'exact'],
        ],
      );
      assert.deepEqual(result.unresolved, []);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
