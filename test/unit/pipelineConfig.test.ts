import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { parse } from 'yaml';
import { WorkspaceAnalysis } from '../../server/src/engine/analysis';
import {
  defaultPipelineOptions,
  loadWorkspaceConfig,
  parseTerraceConfig,
  parseTerraciConfig,
} from '../../server/src/engine/config';
import { generatePipeline } from '../../server/src/engine/pipeline';
import { gitlabPreview } from './gitlabPreview';

/** The execution/gitlab/github sections of .terrace.yaml, and TerraCi's .terraci.yaml read in its place. */
const repo = path.resolve(__dirname, '../..');
const pipelineOf = (text: string) => parseTerraceConfig(text, '.terrace.yaml').pipeline;

describe('.terrace.yaml pipeline sections', () => {
  test('no sections: the defaults', () => {
    const pipeline = pipelineOf('');
    assert.deepEqual(pipeline, defaultPipelineOptions());
    assert.equal(pipeline.gitlab.path, '.gitlab-ci.yml');
    assert.equal(pipeline.github.path, '.github/workflows/terrace.yml');
    assert.equal(pipeline.gitlab.stagePrefix, 'deploy');
    assert.equal(pipeline.execution.binary, 'terraform');
  });

  test('reads every key', () => {
    const pipeline = pipelineOf(`
discovery:
  libraryModules: [./modules/, shared/lib]
execution:
  binary: tofu
  terragrunt: /opt/terragrunt/bin/terragrunt
  parallelism: 4
  initArgs: [-upgrade]
  planArgs: [-refresh=false]
  env: { TF_LOG: info, RETRIES: 3 }
gitlab:
  path: ci/terraform.yml
  stagePrefix: tf
  image: hashicorp/terraform:1.11
  autoApprove: true
  planOnly: false
  cache: false
  variables: { A: b }
  rules: [{ if: $CI_COMMIT_TAG }]
  jobDefaults: { tags: [docker], retry: 1, interruptible: true, timeout: 30m }
  overwrites: [{ type: plan, tags: [small] }]
  split: level
github:
  path: .github/workflows/infra.yml
  name: Infra
  on: { push: { branches: [trunk] } }
  runsOn: [self-hosted]
  environment: "{environment}"
  autoApprove: false
  planOnly: true
  permissions: { contents: read, id-token: write }
  env: { X: y }
  setupSteps: [{ run: echo setup }]
  split: level
`);
    assert.deepEqual(pipeline.libraryModules, ['modules', 'shared/lib']);
    assert.deepEqual(pipeline.execution, {
      binary: 'tofu',
      binaryChosen: true,
      varFiles: [],
      terragrunt: '/opt/terragrunt/bin/terragrunt',
      parallelism: 4,
      initArgs: ['-upgrade'],
      planArgs: ['-refresh=false'],
      env: { TF_LOG: 'info', RETRIES: '3' },
      retries: 0,
      init: 'auto',
    });
    assert.equal(pipeline.gitlab.path, 'ci/terraform.yml');
    assert.equal(pipeline.gitlab.stagePrefix, 'tf');
    assert.equal(pipeline.gitlab.autoApprove, true);
    assert.equal(pipeline.gitlab.cache, false);
    assert.deepEqual(pipeline.gitlab.jobDefaults, { tags: ['docker'], retry: 1, interruptible: true, timeout: '30m' });
    assert.deepEqual(pipeline.gitlab.overwrites, [{ type: 'plan', settings: { tags: ['small'] } }]);
    assert.equal(pipeline.github.name, 'Infra');
    assert.deepEqual(pipeline.github.runsOn, ['self-hosted']);
    assert.deepEqual(pipeline.github.permissions, { contents: 'read', 'id-token': 'write' });
    assert.equal(pipeline.github.planOnly, true);
    assert.deepEqual(pipeline.github.setupSteps, [{ run: 'echo setup' }]);
    assert.equal(pipeline.gitlab.split, 'level');
    assert.equal(pipeline.github.split, 'level');
  });

  test('validate: off by default, running terrace validate . when on; the command and the GitLab image as given', () => {
    assert.deepEqual(pipelineOf('').validate, { enabled: false, command: 'terrace validate .', image: undefined });
    assert.deepEqual(pipelineOf('validate: { enabled: true }').validate, {
      enabled: true,
      command: 'terrace validate .',
      image: undefined,
    });
    assert.deepEqual(
      pipelineOf(`
validate:
  enabled: true
  command: node tools/terrace/cli.js validate . --env prod
  image: { name: "node:20", entrypoint: [""] }
`).validate,
      {
        enabled: true,
        command: 'node tools/terrace/cli.js validate . --env prod',
        image: { name: 'node:20', entrypoint: [''] },
      },
    );
    assert.equal(pipelineOf('validate: { image: node:20 }').validate.image, 'node:20');
  });

  test('invalid values: an error naming the key and what was expected', () => {
    const cases: [string, string][] = [
      ['gitlab: { stagesPrefix: x }', "c.yaml: unknown key 'gitlab.stagesPrefix'; expected path, stagePrefix, image"],
      ['gitlab: { autoApprove: "yes" }', 'c.yaml: gitlab.autoApprove must be true or false'],
      [
        'gitlab: { stagePrefix: "a b" }',
        "c.yaml: gitlab.stagePrefix must be letters, digits, '.', '_' or '-', like deploy; got 'a b'",
      ],
      ['gitlab: { jobDefaults: { tag: [x] } }', "c.yaml: unknown key 'gitlab.jobDefaults.tag'; expected image, tags,"],
      ['gitlab: { jobDefaults: { tags: docker } }', 'c.yaml: gitlab.jobDefaults.tags must be a list of strings'],
      [
        'gitlab: { jobDefaults: { variables: { A: [1] } } }',
        'c.yaml: gitlab.jobDefaults.variables.A must be a string, a number or true/false',
      ],
      ['gitlab: { overwrites: [{ tags: [x] }] }', "c.yaml: gitlab.overwrites[0].type is required: 'plan' or 'apply'"],
      [
        'gitlab: { overwrites: [{ type: destroy }] }',
        "c.yaml: gitlab.overwrites[0].type must be 'plan' or 'apply', not 'destroy'",
      ],
      [
        'gitlab: { path: ../ci.yml }',
        "c.yaml: gitlab.path must be a path inside the workspace folder, like .gitlab-ci.yml; got '../ci.yml'",
      ],
      ['gitlab: { rules: { if: x } }', 'c.yaml: gitlab.rules must be a list of mappings'],
      ['github: { split: folder }', "c.yaml: github.split must be 'none' or 'level', not 'folder'"],
      ['execution: { binary: terragrunt }', "c.yaml: execution.binary must be 'terraform' or 'tofu', not 'terragrunt'"],
      ['execution: { parallelism: -1 }', 'c.yaml: execution.parallelism must be a whole number of at least 0'],
      ['execution: { planArgs: -refresh=false }', 'c.yaml: execution.planArgs must be a list of strings'],
      ['execution: { env: { "A-B": x } }', 'c.yaml: execution.env.A-B: a variable name must be letters, digits and _'],
      [
        'github: { permissions: { contents: admin } }',
        "c.yaml: github.permissions.contents must be 'read', 'write' or 'none', not 'admin'",
      ],
      ['github: { runs_on: x }', "c.yaml: unknown key 'github.runs_on'; expected path, name, on, runsOn"],
      ['github: []', 'c.yaml: github must be a mapping of keys to values'],
      [
        'pipeline: {}',
        "c.yaml: unknown key 'pipeline'; expected engine, discovery, terraformWorkspace, environments, backendConfig, execution, gitlab, github, validate or gate",
      ],
      ['validate: { enabled: "yes" }', 'c.yaml: validate.enabled must be true or false'],
      ['validate: { command: "  " }', 'c.yaml: validate.command must not be empty'],
      ['validate: { command: [terrace, validate] }', 'c.yaml: validate.command must be a string'],
      [
        'validate: { image: { entrypoint: [""] } }',
        'c.yaml: validate.image must be an image name or a mapping with a name (and entrypoint)',
      ],
      ['validate: { run: x }', "c.yaml: unknown key 'validate.run'; expected enabled, command or image"],
      ['validate: true', 'c.yaml: validate must be a mapping of keys to values'],
    ];
    for (const [text, message] of cases) {
      assert.throws(
        () => parseTerraceConfig(text, 'c.yaml'),
        (error: Error) => error.message.startsWith(message),
        `${text} → ${message}`,
      );
    }
  });
});

const TERRACI = `
structure:
  pattern: "{service}/{environment}/{region}/{module}"
exclude:
  - "*/test/*"
library_modules:
  paths: [_modules]
gitlab:
  terraform_binary: tofu
  image: { name: "ghcr.io/opentofu/opentofu:1.9-minimal", entrypoint: [""] }
  stages_prefix: infra
  parallelism: 5
  plan_enabled: true
  auto_approve: true
  cache_enabled: false
  init_enabled: true
  variables: { TF_INPUT: "false" }
  job_defaults:
    tags: [terraform, docker]
    before_script: [aws sts get-caller-identity]
  overwrites:
    - type: apply
      tags: [production]
  mr:
    comment: { enabled: true }
backend:
  type: s3
  bucket: my-terraform-state
`;

describe('.terraci.yaml (TerraCi) compatibility', () => {
  const dirs: string[] = [];
  after(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  test('maps TerraCi keys to Terrace options, and says what has no effect', () => {
    const { analysis, pipeline, warnings } = parseTerraciConfig(TERRACI, '.terraci.yaml');
    assert.equal(analysis.discovery.mode, 'pattern');
    assert.equal(analysis.discovery.pattern, '{service}/{environment}/{region}/{module}');
    assert.deepEqual(analysis.discovery.exclude, ['*/test/*']);
    assert.deepEqual(pipeline.libraryModules, ['_modules']);
    assert.equal(pipeline.execution.binary, 'tofu');
    assert.equal(pipeline.execution.parallelism, 5);
    assert.equal(pipeline.gitlab.stagePrefix, 'infra');
    assert.equal(pipeline.gitlab.autoApprove, true);
    assert.equal(pipeline.gitlab.cache, false);
    assert.deepEqual(pipeline.gitlab.image, { name: 'ghcr.io/opentofu/opentofu:1.9-minimal', entrypoint: [''] });
    assert.deepEqual(pipeline.gitlab.variables, { TF_INPUT: 'false' });
    assert.deepEqual(pipeline.gitlab.jobDefaults, {
      tags: ['terraform', 'docker'],
      before_script: ['aws sts get-caller-identity'],
    });
    assert.deepEqual(pipeline.gitlab.overwrites, [{ type: 'apply', settings: { tags: ['production'] } }]);
    assert.deepEqual(warnings, ['.terraci.yaml: gitlab.mr: merge-request integration; Terrace ignores it']);
  });

  test('wrong TerraCi keys are errors naming the key', () => {
    assert.throws(() => parseTerraciConfig('gitlab: { stage_prefix: x }', 't.yaml'), {
      message: /^t\.yaml: unknown key 'gitlab\.stage_prefix'; expected terraform_binary, image, stages_prefix/,
    });
    assert.throws(() => parseTerraciConfig('structure: { pattern: "a/b" }', 't.yaml'), {
      message: /^t\.yaml: structure\.pattern must be folder names in braces/,
    });
    assert.throws(() => parseTerraciConfig('gitlab: { auto_approve: 1 }', 't.yaml'), {
      message: 't.yaml: gitlab.auto_approve must be true or false',
    });
  });

  test('split: level in .terrace.yaml splits the pipeline; --split none (the request) keeps it whole', async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'terrace-split-'));
    dirs.push(root);
    cpSync(path.join(repo, 'test/fixtures/pipeline-local-backend'), root, { recursive: true });
    writeFileSync(
      path.join(root, '.terrace.yaml'),
      'gitlab: { split: level, path: ci/main.yml }\ngithub: { split: level }\n',
    );
    const config = await loadWorkspaceConfig(root);
    const analysis = new WorkspaceAnalysis(root, config.analysis);
    await analysis.load();
    const gitlab = generatePipeline(analysis.result(), { ci: 'gitlab', options: config.pipeline });
    assert.deepEqual(
      gitlab.companions.map((file) => file.path),
      ['ci/main-level-0.yml', 'ci/main-level-1.yml', 'ci/main-level-2.yml'],
    );
    assert.match(gitlab.text, /^# regenerate with `terrace generate --ci gitlab --output ci\/main\.yml`/m);
    const github = generatePipeline(analysis.result(), { ci: 'github', options: config.pipeline });
    assert.equal(github.companions.length, 3);
    const whole = generatePipeline(analysis.result(), { ci: 'gitlab', options: config.pipeline, split: 'none' });
    assert.deepEqual(whole.companions, []);
    assert.match(whole.text, /--split none --output ci\/main\.yml/);
  });

  test('a workspace with only .terraci.yaml: its settings shape the analysis and the pipeline', async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'terrace-terraci-'));
    dirs.push(root);
    cpSync(path.join(repo, 'test/fixtures/pipeline-local-backend'), root, { recursive: true });
    writeFileSync(path.join(root, '.terraci.yaml'), TERRACI);
    const config = await loadWorkspaceConfig(root);
    assert.equal(config.file, path.join(root, '.terraci.yaml'));
    const analysis = new WorkspaceAnalysis(root, config.analysis);
    await analysis.load();
    // Pattern discovery (TerraCi's): modules/tags is at depth 2, so not a module.
    assert.deepEqual(
      analysis.result().modules.map((module) => module.id),
      ['app/prod/eu-west-1/api', 'data/prod/eu-west-1/db', 'network/prod/eu-west-1/vpc', 'platform/prod/eu-west-1/eks'],
    );
    const { text } = generatePipeline(analysis.result(), { ci: 'gitlab', options: config.pipeline });
    // The stages as written; the jobs as GitLab sees them.
    const yaml = { ...parse(text), ...gitlabPreview(text), stages: parse(text).stages };
    assert.deepEqual(yaml.stages.slice(0, 2), ['infra-plan-0', 'infra-apply-0']);
    assert.deepEqual(yaml['apply-network-prod-eu-west-1-vpc'].tags, ['production']);
    assert.deepEqual(yaml['plan-network-prod-eu-west-1-vpc'].script[1], 'tofu init -input=false');
    assert.equal(yaml['apply-network-prod-eu-west-1-vpc'].when, undefined);

    // A .terrace.yaml next to it wins.
    writeFileSync(path.join(root, '.terrace.yaml'), 'gitlab: { stagePrefix: terrace }\n');
    const own = await loadWorkspaceConfig(root);
    assert.equal(own.file, path.join(root, '.terrace.yaml'));
    assert.equal(own.pipeline.gitlab.stagePrefix, 'terrace');
  });
});
