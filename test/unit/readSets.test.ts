import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { changeReach, WorkspaceAnalysis } from '../../server/src/engine/analysis';
import { defaultOptions } from '../../server/src/engine/config';
import { reachExplanations } from '../../server/src/engine/features';

/**
 * What a change reaches, through the files each module's plan reads: one workspace per kind of read,
 * written here, and the modules a change of some of its files reaches, with why.
 */
const made: string[] = [];
after(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A workspace of `files` (path → text) under a new folder; the workspace folder is `root` inside it. */
async function workspace(files: Record<string, string>, root = '.') {
  const top = mkdtempSync(path.join(os.tmpdir(), 'terrace-reads-'));
  made.push(top);
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(top, file)), { recursive: true });
    writeFileSync(path.join(top, file), text);
  }
  const dir = path.join(top, root);
  const analysis = new WorkspaceAnalysis(dir, defaultOptions());
  await analysis.load();
  const result = analysis.result();
  /** The modules a change of `changed` (relative to the workspace folder) reaches, and why each. */
  return (...changed: string[]) => {
    const reach = changeReach(result, changed, { backendConfigFiles: defaultOptions().discovery.backendConfigFiles });
    const why = reachExplanations(result, reach);
    return {
      reached: [...reach.reached.keys()],
      affected: [...reach.affected].sort(),
      why: Object.fromEntries([...reach.reached.keys()].map((id) => [id, why.get(id)])),
    };
  };
}

const root = (name: string, body = '') => `terraform {\n  backend "local" { path = "${name}.tfstate" }\n}\n${body}`;

describe('what a change reaches through the files a root module reads', () => {
  test('its own configuration, variable, backend and lock files; not a README, a script or a sub-folder', async () => {
    const reach = await workspace({
      'app/main.tf': root('app'),
      'app/terraform.tfvars': 'a = 1\n',
      'app/prod.tfvars': 'a = 2\n',
      'app/prod.tfbackend': 'path = "prod.tfstate"\n',
      'app/.terraform.lock.hcl': '# lock\n',
      'app/README.md': '# app\n',
      'app/scripts/deploy.sh': 'echo\n',
      'other/main.tf': root('other'),
    });
    for (const file of [
      'app/main.tf',
      'app/extra.tf',
      'app/terraform.tfvars',
      'app/new.auto.tfvars',
      'app/prod.tfvars',
      'app/prod.tfbackend',
      'app/.terraform.lock.hcl',
    ])
      assert.deepEqual(reach(file).reached, ['app'], file);
    assert.deepEqual(reach('app/README.md', 'app/scripts/deploy.sh', 'app/scripts/main.tf').reached, []);
    assert.deepEqual(reach('app/main.tf').why, { app: 'its own file main.tf' });
  });

  test('a local child module, called directly or through another: its files reach every root calling it', async () => {
    const reach = await workspace({
      'a/main.tf': root('a', 'module "net" {\n  source = "../modules/net"\n}\n'),
      'b/main.tf': root('b', 'module "stack" {\n  source = "../modules/stack"\n}\n'),
      'c/main.tf': root('c'),
      'modules/stack/main.tf': 'module "net" {\n  source = "../net"\n}\n',
      'modules/net/main.tf': 'resource "terraform_data" "x" {}\n',
      'modules/net/README.md': '# net\n',
    });
    assert.deepEqual(reach('modules/net/main.tf').reached, ['a', 'b']);
    assert.deepEqual(reach('modules/stack/variables.tf').reached, ['b']);
    assert.deepEqual(reach('modules/net/README.md').reached, []);
    assert.deepEqual(reach('modules/net/main.tf').why, {
      a: 'reads modules/net/main.tf (module.net, main.tf:4)',
      b: 'reads modules/net/main.tf (module.stack.module.net, ../modules/stack/main.tf:1)',
    });
  });

  test('file() with path.module, in a resource: the file it names, outside the module folder too', async () => {
    const reach = await workspace({
      'app/main.tf': root(
        'app',
        'resource "terraform_data" "policy" {\n  input = file("${path.module}/../policies/app.tpl")\n}\n',
      ),
      'policies/app.tpl': 'x\n',
      'policies/other.tpl': 'y\n',
    });
    assert.deepEqual(reach('policies/app.tpl').reached, ['app']);
    assert.deepEqual(reach('policies/other.tpl').reached, []);
    assert.deepEqual(reach('policies/app.tpl').why, { app: 'reads policies/app.tpl (file(), main.tf:5)' });
  });

  test('path.module inside a child module is the child folder, for every root that calls it', async () => {
    const reach = await workspace({
      'a/main.tf': root('a', 'module "rules" {\n  source = "../modules/rules"\n}\n'),
      'b/main.tf': root('b', 'module "rules" {\n  source = "../modules/rules"\n}\n'),
      'modules/rules/main.tf': 'locals {\n  rules = jsondecode(file("${path.module}/rules.json"))\n}\n',
      'modules/rules/rules.json': '{}\n',
      'a/rules.json': '{}\n',
    });
    assert.deepEqual(reach('modules/rules/rules.json').reached, ['a', 'b']);
    assert.deepEqual(reach('a/rules.json').reached, []);
  });

  test('a relative path is taken from the root the plan runs in, even inside a child module', async () => {
    const reach = await workspace({
      'envs/dev/app/main.tf': root('dev', 'module "config" {\n  source = "../../../modules/config"\n}\n'),
      'envs/prod/app/main.tf': root('prod', 'module "config" {\n  source = "../../../modules/config"\n}\n'),
      'modules/config/main.tf': 'output "config" {\n  value = yamldecode(file("config.yaml"))\n}\n',
      'envs/dev/app/config.yaml': 'a: 1\n',
      'envs/prod/app/config.yaml': 'a: 2\n',
      'modules/config/config.yaml': 'a: 3\n',
    });
    assert.deepEqual(reach('envs/dev/app/config.yaml').reached, ['envs/dev/app']);
    assert.deepEqual(reach('envs/prod/app/config.yaml').reached, ['envs/prod/app']);
    assert.deepEqual(reach('modules/config/config.yaml').reached, []);
  });

  test('templatefile, fileset and a path built from a local: the files each names or matches', async () => {
    const reach = await workspace({
      'app/main.tf': root(
        'app',
        [
          'locals {',
          '  templates = "${path.module}/templates"',
          '}',
          'resource "terraform_data" "user_data" {',
          '  input = templatefile("${local.templates}/boot.sh.tpl", { name = "x" })',
          '}',
          'resource "terraform_data" "configs" {',
          '  for_each = fileset("${path.module}/configs", "*.json")',
          '  input    = each.value',
          '}',
        ].join('\n'),
      ),
    });
    assert.deepEqual(reach('app/templates/boot.sh.tpl').reached, ['app']);
    assert.deepEqual(reach('app/templates/other.tpl').reached, []);
    assert.deepEqual(reach('app/configs/new.json').reached, ['app'], 'a file the pattern matches, added');
    assert.deepEqual(reach('app/configs/sub/deep.json', 'app/configs/notes.txt').reached, []);
  });

  test('a path known in part counts the files it could be, and says so; one not known at all, the root folder', async () => {
    const reach = await workspace({
      'app/main.tf': root(
        'app',
        [
          'variable "policy" {}',
          'resource "terraform_data" "policy" {',
          '  input = file("${path.module}/../policies/${var.policy}.json")',
          '}',
        ].join('\n'),
      ),
      'tool/main.tf': root(
        'tool',
        'variable "path" {}\nresource "terraform_data" "x" {\n  input = file(var.path)\n}\n',
      ),
    });
    assert.deepEqual(reach('policies/anything.json').reached, ['app']);
    assert.deepEqual(reach('policies/deep/er.json').reached, ['app'], 'a variable may hold a folder too');
    assert.deepEqual(reach('policies/anything.txt').reached, []);
    assert.match(reach('policies/anything.json').why.app!, /a path known in part: policies\/\$\{var\.policy\}\.json/);
    assert.deepEqual(reach('tool/data/anything.csv').reached, ['tool']);
    assert.deepEqual(reach('tool/README.md', 'tool/docs/guide.md', 'tool/LICENSE').reached, [], 'but documentation');
    assert.deepEqual(reach('app/data/anything.csv').reached, []);
  });

  test('data sources that read files while planning: archive_file, external, local_file', async () => {
    const reach = await workspace({
      'app/main.tf': root(
        'app',
        [
          'data "archive_file" "lambda" {',
          '  type        = "zip"',
          '  source_file = "${path.module}/lambda/handler.py"',
          '  output_path = "${path.module}/lambda.zip"',
          '}',
          'data "archive_file" "site" {',
          '  type        = "zip"',
          '  source_dir  = "${path.module}/site"',
          '  output_path = "${path.module}/site.zip"',
          '}',
          'data "external" "lookup" {',
          '  program = ["bash", "${path.module}/scripts/lookup.sh"]',
          '}',
        ].join('\n'),
      ),
    });
    for (const file of ['app/lambda/handler.py', 'app/site/index.html', 'app/site/css/a.css', 'app/scripts/lookup.sh'])
      assert.deepEqual(reach(file).reached, ['app'], file);
    assert.deepEqual(reach('app/lambda/README.md', 'app/scripts/other.sh').reached, []);
  });

  test('a child module outside the workspace folder is read, with what its file functions name', async () => {
    const reach = await workspace(
      {
        'projects/app/main.tf': root(
          'app',
          'module "node" {\n  source = "../../modules/node"\n  policy = "default.json"\n}\n',
        ),
        'modules/node/main.tf':
          'variable "policy" {}\nresource "terraform_data" "p" {\n  input = file("${path.module}/${var.policy}")\n}\n',
        'modules/node/default.json': '{}\n',
      },
      'projects',
    );
    assert.deepEqual(reach('../modules/node/default.json').reached, ['app']);
    assert.deepEqual(reach('../modules/node/main.tf').reached, ['app']);
    assert.deepEqual(reach('../modules/node/other.json').reached, []);
  });

  test('a file its folder links to: git names the target, and every root linking to it is reached', async () => {
    const top = mkdtempSync(path.join(os.tmpdir(), 'terrace-reads-'));
    made.push(top);
    for (const [file, text] of Object.entries({
      'shared/globals.tf': 'variable "region" {\n  default = "eu-west-1"\n}\n',
      'a/main.tf': root('a'),
      'b/main.tf': root('b'),
      'c/main.tf': root('c'),
    })) {
      mkdirSync(path.dirname(path.join(top, file)), { recursive: true });
      writeFileSync(path.join(top, file), text);
    }
    symlinkSync('../shared/globals.tf', path.join(top, 'a', 'globals.tf'));
    symlinkSync('../shared/globals.tf', path.join(top, 'b', 'globals.tf'));
    const analysis = new WorkspaceAnalysis(top, defaultOptions());
    await analysis.load();
    const result = analysis.result();
    const reach = changeReach(result, ['shared/globals.tf']);
    assert.deepEqual([...reach.reached.keys()], ['a', 'b']);
    assert.equal(reachExplanations(result, reach).get('a'), 'reads shared/globals.tf (through the link globals.tf)');
  });

  test('a deleted module reaches nothing under its old path; a renamed one is reached under its new one', async () => {
    const reach = await workspace({ 'new/main.tf': root('new'), 'kept/main.tf': root('kept') });
    assert.deepEqual(reach('old/main.tf', 'old/variables.tf').reached, [], 'old/ is gone');
    assert.deepEqual(reach('old/main.tf', 'new/main.tf').reached, ['new']);
  });

  test('the dependents of a module reached are affected, each saying which module it waits for', async () => {
    const reach = await workspace({
      'net/main.tf': root('net', 'resource "terraform_data" "x" {\n  input = file("${path.module}/cidr.txt")\n}\n'),
      'app/main.tf': root(
        'app',
        'data "terraform_remote_state" "net" {\n  backend = "local"\n  config = { path = "../net/net.tfstate" }\n}\n',
      ),
    });
    const found = reach('net/cidr.txt');
    assert.deepEqual(found.reached, ['net']);
    assert.deepEqual(found.affected, ['app', 'net']);
  });

  test('declared library folders: any file in one reaches the roots that call a module inside it', async () => {
    const top = mkdtempSync(path.join(os.tmpdir(), 'terrace-reads-'));
    made.push(top);
    for (const [file, text] of Object.entries({
      'app/main.tf': root('app', 'module "tags" {\n  source = "../lib/tags"\n}\n'),
      'lib/tags/main.tf': '',
    })) {
      mkdirSync(path.dirname(path.join(top, file)), { recursive: true });
      writeFileSync(path.join(top, file), text);
    }
    const analysis = new WorkspaceAnalysis(top, defaultOptions());
    await analysis.load();
    const reach = changeReach(analysis.result(), ['lib/README.md'], { libraryModules: ['lib'] });
    assert.deepEqual([...reach.reached.keys()], ['app']);
    assert.deepEqual(changeReach(analysis.result(), ['lib/README.md']).reached.size, 0);
  });
});

describe('what a change reaches through the files a Terragrunt unit reads', () => {
  const live = {
    'live/terragrunt.hcl': [
      'locals {',
      '  env    = read_terragrunt_config(find_in_parent_folders("env.hcl"))',
      '  global = yamldecode(file(find_in_parent_folders("global.yaml")))',
      '}',
      'remote_state {',
      '  backend = "s3"',
      '  config  = { bucket = "b", key = "${path_relative_to_include()}/terraform.tfstate" }',
      '}',
      'generate "provider" {',
      '  path     = "provider.tf"',
      '  contents = file("${get_parent_terragrunt_dir()}/provider.tpl")',
      '}',
      'terraform {',
      '  extra_arguments "common" {',
      '    commands           = ["plan"]',
      '    required_var_files = ["${get_parent_terragrunt_dir()}/common.tfvars"]',
      '    arguments          = ["-var-file=${get_parent_terragrunt_dir()}/${local.env.locals.env}.tfvars"]',
      '  }',
      '}',
    ].join('\n'),
    'global.yaml': 'a: 1\n',
    'live/provider.tpl': 'provider "aws" {}\n',
    'live/common.tfvars': 'a = 1\n',
    'live/prod.tfvars': 'a = 2\n',
    'live/prod/env.hcl': 'locals { env = "prod" }\n',
    'live/dev/env.hcl': 'locals { env = "dev" }\n',
    'modules/vpc/main.tf': 'variable "a" {}\n',
    'modules/vpc/policy.json': '{}\n',
  };
  const unit = (source = '../../../modules//vpc') =>
    `include "root" {\n  path = find_in_parent_folders()\n}\nterraform {\n  source = "${source}"\n}\n`;
  const units = {
    ...live,
    'live/prod/vpc/terragrunt.hcl': unit(),
    'live/prod/app/terragrunt.hcl': unit(),
    'live/prod/app/README.md': '# app\n',
    'live/dev/vpc/terragrunt.hcl': unit(),
    'live/dev/dns/terragrunt.hcl': 'terraform {\n  source = "git::https://example.com/modules.git//dns"\n}\n',
  };

  test('the file every unit includes: each unit that includes it, and why', async () => {
    const reach = await workspace(units);
    const found = reach('live/terragrunt.hcl');
    assert.deepEqual(found.reached, ['live/dev/vpc', 'live/prod/app', 'live/prod/vpc']);
    assert.equal(found.why['live/prod/app'], 'reads live/terragrunt.hcl (include "root", terragrunt.hcl:1)');
  });

  test('read_terragrunt_config(find_in_parent_folders()): the units whose nearest such file it is', async () => {
    const reach = await workspace(units);
    assert.deepEqual(reach('live/prod/env.hcl').reached, ['live/prod/app', 'live/prod/vpc']);
    assert.deepEqual(reach('live/dev/env.hcl').reached, ['live/dev/vpc']);
    assert.deepEqual(
      reach('live/prod/vpc/../env.hcl').why['live/prod/vpc'],
      'reads live/prod/env.hcl (read_terragrunt_config())',
    );
  });

  test('a file find_in_parent_folders looks for, added nearer a unit, reaches it', async () => {
    const reach = await workspace(units);
    assert.deepEqual(reach('live/prod/global.yaml').reached, ['live/prod/app', 'live/prod/vpc']);
    assert.deepEqual(reach('global.yaml').reached, ['live/dev/vpc', 'live/prod/app', 'live/prod/vpc']);
  });

  test('file() in the include, generate contents, extra_arguments var files, with a path from a local', async () => {
    const reach = await workspace(units);
    const all = ['live/dev/vpc', 'live/prod/app', 'live/prod/vpc'];
    assert.deepEqual(reach('live/provider.tpl').reached, all);
    assert.deepEqual(reach('live/common.tfvars').reached, all);
    assert.deepEqual(reach('live/prod.tfvars').reached, ['live/prod/app', 'live/prod/vpc']);
    assert.deepEqual(reach('live/dev.tfvars').reached, ['live/dev/vpc']);
    assert.equal(
      reach('live/common.tfvars').why['live/dev/vpc'],
      'reads live/common.tfvars (extra_arguments "common", ../../terragrunt.hcl:16)',
    );
  });

  test('a local terraform source: its files and what they read; a README in a unit folder reaches nothing', async () => {
    const reach = await workspace({
      ...units,
      'modules/vpc/main.tf': 'resource "terraform_data" "p" {\n  input = file("${path.module}/policy.json")\n}\n',
    });
    assert.deepEqual(reach('modules/vpc/main.tf').reached, ['live/dev/vpc', 'live/prod/app', 'live/prod/vpc']);
    assert.deepEqual(reach('modules/vpc/policy.json').reached, ['live/dev/vpc', 'live/prod/app', 'live/prod/vpc']);
    assert.deepEqual(reach('live/prod/app/README.md').reached, []);
    assert.deepEqual(reach('live/prod/app/terragrunt.hcl', 'live/prod/app/local.tf').reached, ['live/prod/app']);
  });

  test("a unit that does not include the root is not reached by it; a remote source's folder is not read", async () => {
    const reach = await workspace(units);
    assert.ok(!reach('live/terragrunt.hcl').reached.includes('live/dev/dns'));
    assert.deepEqual(reach('live/dev/dns/terragrunt.hcl').reached, ['live/dev/dns']);
  });

  test('read_terragrunt_config(find_in_parent_folders()) of a file that is no Terragrunt configuration', async () => {
    const reach = await workspace({
      ...units,
      'live/prod/app/terragrunt.hcl': `${unit()}locals {\n  external = read_terragrunt_config(find_in_parent_folders("external.tf"))\n}\n`,
      'live/prod/external.tf': 'locals {\n  id = "x"\n}\n',
    });
    assert.deepEqual(reach('live/prod/external.tf').reached, ['live/prod/app']);
    assert.equal(
      reach('live/prod/external.tf').why['live/prod/app'],
      'reads live/prod/external.tf (read_terragrunt_config())',
    );
  });

  test('mark_as_read and sops_decrypt_file name files a unit reads', async () => {
    const reach = await workspace({
      'unit/terragrunt.hcl': [
        'locals {',
        '  marked  = mark_as_read("${get_terragrunt_dir()}/../shared/extra.txt")',
        '  secrets = yamldecode(sops_decrypt_file("secrets.enc.yaml"))',
        '}',
      ].join('\n'),
      'unit/main.tf': '',
    });
    assert.deepEqual(reach('shared/extra.txt').reached, ['unit']);
    assert.deepEqual(reach('unit/secrets.enc.yaml').reached, ['unit']);
  });
});

describe('what a change reaches in a Terraform Stack', () => {
  test("a component: its Stack's files and its module's", async () => {
    const reach = await workspace({
      'stack/components.tfcomponent.hcl': [
        'component "vpc" {',
        '  source = "./modules/vpc"',
        '}',
        'component "app" {',
        '  source = "./modules/app"',
        '}',
      ].join('\n'),
      'stack/modules/vpc/main.tf': '',
      'stack/modules/app/main.tf': '',
      'stack/README.md': '',
    });
    assert.deepEqual(reach('stack/components.tfcomponent.hcl').reached, ['stack/component.app', 'stack/component.vpc']);
    assert.deepEqual(reach('stack/modules/vpc/main.tf').reached, ['stack/component.vpc']);
    assert.deepEqual(reach('stack/README.md').reached, []);
  });
});
