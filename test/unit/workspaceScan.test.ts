import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { defaultOptions } from '../../server/src/engine/config';
import { moduleSegments, scanWorkspace } from '../../server/src/engine/workspace';

const root = mkdtempSync(path.join(os.tmpdir(), 'terrace-scan-'));
after(() => rmSync(root, { recursive: true, force: true }));

function write(file: string, text = ''): void {
  mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  writeFileSync(path.join(root, file), text);
}

write('network/vpc/main.tf');
write('network/vpc/terraform.tfvars');
write('network/vpc/b.auto.tfvars');
write('network/vpc/a.auto.tfvars');
write('network/vpc/prod.s3.tfbackend');
write('network/vpc/.terraform.lock.hcl');
write('network/vpc/.terraform/modules/x/main.tf');
write('app/api/main.tf.json', '{}');
write('app/api/README.md');
write('build/out/main.tf');
write('sandbox/try/main.tf');
write('.gitignore', 'build/\n');
write('app/.gitignore', '*.generated.tf\n');
write('app/api/x.generated.tf');
write('node_modules/pkg/main.tf');
symlinkSync(root, path.join(root, 'app/api/loop'));

describe('workspace scan', () => {
  test('lists folders with Terraform files, skipping .terraform, node_modules, .gitignore and excludes', async () => {
    const options = defaultOptions().discovery;
    const scan = await scanWorkspace(root, {
      ...options,
      exclude: ['sandbox/**'],
      backendConfigFiles: ['*.tfbackend'],
    });
    assert.deepEqual([...scan.dirs.keys()].sort(), ['app/api', 'network/vpc']);
    const vpc = scan.dirs.get('network/vpc')!;
    assert.deepEqual(
      vpc.varFiles.map((file) => path.basename(file)),
      ['terraform.tfvars', 'a.auto.tfvars', 'b.auto.tfvars'],
    );
    assert.deepEqual(
      vpc.backendFiles.map((file) => path.basename(file)),
      ['prod.s3.tfbackend'],
    );
    assert.equal(vpc.hasLockFile, true);
    assert.deepEqual(
      scan.dirs.get('app/api')!.tfFiles.map((file) => path.basename(file)),
      ['main.tf.json'],
    );
  });

  test('a file Git tracks is read though a .gitignore matches it, as Git does; an ignored untracked one is not', async () => {
    const repo = mkdtempSync(path.join(os.tmpdir(), 'terrace-tracked-'));
    try {
      const put = (file: string, text = '') => {
        mkdirSync(path.dirname(path.join(repo, file)), { recursive: true });
        writeFileSync(path.join(repo, file), text);
      };
      put('.gitignore', '.terraform.lock.hcl\nvendor/\n');
      put('oidc/main.tf', 'resource "terraform_data" "x" {}\n');
      put('oidc/.terraform.lock.hcl');
      put('vendor/kept/main.tf');
      put('vendor/local/main.tf');
      put('scratch/main.tf');
      put('scratch/.terraform.lock.hcl');
      const git = (...args: string[]) =>
        execFileSync('git', ['-C', repo, '-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args]);
      git('init', '-q');
      git('add', '.gitignore', 'oidc/main.tf', 'scratch/main.tf');
      git('add', '-f', 'oidc/.terraform.lock.hcl', 'vendor/kept/main.tf');
      git('commit', '-qm', 'x');
      const scan = await scanWorkspace(repo, defaultOptions().discovery);
      assert.deepEqual([...scan.dirs.keys()].sort(), ['oidc', 'scratch', 'vendor/kept']);
      assert.equal(scan.dirs.get('oidc')!.hasLockFile, true, 'committed with git add -f');
      assert.equal(scan.dirs.get('scratch')!.hasLockFile, false, 'ignored and untracked: a local terraform init');
    } finally {
      rmSync(repo, { recursive: true, force: true });
    }
  });

  test('a symbolic link that loops is cut and reported, not followed forever', async () => {
    const scan = await scanWorkspace(root, defaultOptions().discovery);
    assert.ok(scan.problems.some((problem) => problem.path.endsWith('loop') && /loops back/.test(problem.message)));
  });
});

describe('module segments', () => {
  const pattern = '{service}/{environment}/{region}/{module}';
  test('named by the pattern, with a submodule one level deeper', () => {
    assert.deepEqual(moduleSegments('platform/stage/eu-central-1/ec2', pattern), {
      service: 'platform',
      environment: 'stage',
      region: 'eu-central-1',
      module: 'ec2',
    });
    assert.deepEqual(moduleSegments('platform/stage/eu-central-1/ec2/rabbitmq', pattern), {
      service: 'platform',
      environment: 'stage',
      region: 'eu-central-1',
      module: 'ec2',
      submodule: 'rabbitmq',
    });
  });
  test('none for paths that do not follow the pattern', () => {
    assert.deepEqual(moduleSegments('network/vpc', pattern), {});
  });
});
