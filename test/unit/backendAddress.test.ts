import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
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
