import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, test } from 'node:test';
import { parse } from 'yaml';
import { analyzeDirectory } from '../../server/src/engine/analysis';
import { defaultPipelineOptions } from '../../server/src/engine/config';
import {
  CI_SYSTEMS,
  type CiFile,
  generatePipeline,
  githubWorkflow,
  gitlabPipeline,
  planPipeline,
  yamlAnchored,
  yamlConstant,
  yamlFlow,
  yamlText,
} from '../../server/src/engine/pipeline';

/** The pipelines' YAML writer, with the `yaml` package as the reader: what is written is what is read, in YAML 1.1 and 1.2. */
const read = (text: string, version: '1.1' | '1.2') => parse(text, { version });

const TRICKY = [
  ...['on', 'On', 'off', 'yes', 'No', 'y', 'Y', 'n', '~', 'null', 'NULL', 'true', 'False'],
  ...['1.0', '.5', '.', '1e3', '0x1F', '08', '0o7', '1_000', '0b101', '+1', '-1', '.inf', '.NaN', '1:20', '2001-12-14'],
  ...[
    '- a',
    '-',
    '--',
    '---',
    '...',
    'a: b',
    'a:',
    'a:b',
    'http://x:80/a',
    '#x',
    'a #b',
    'x#y',
    '*a',
    '&a',
    '!a',
    '|a',
  ],
  ...['>a', '%a', '@a', '`a', '"a"', "'a'", 'a "b"', "it's", '', ' lead', 'trail ', 'multi\nline', 'tab\there'],
  ...['{a}', '[a]', 'a, b', 'a,b', '<<', '=', '?x', '? x', 'ü', 'a\\b', '$CI_COMMIT_BRANCH == "main"', "cd 'a b'"],
  ...[
    'terraform plan -input=false -out=plan.tfplan',
    'a  b',
    'a = b',
    'a =',
    'a b=c -d',
    'a/ b',
    'y -x',
    'eu-central-1',
    'platform/stage/eu-central-1/ec2/rabbitmq',
    '1 week',
  ],
];

describe('pipeline YAML writer', () => {
  test('every tricky string reads back as the same string, as a value and as a key', () => {
    for (const text of TRICKY) {
      const value = { value: text, [text]: 'key', list: [text] };
      for (const version of ['1.1', '1.2'] as const)
        assert.deepEqual(read(yamlText(value), version), value, `${JSON.stringify(text)} in YAML ${version}`);
    }
  });

  test('one-line collections and anchors read back as what was written', () => {
    const shared = yamlAnchored('module-a', yamlFlow({ PATH: 'a/b', ODD: 'x, [y]: {z}', YES: 'yes', N: '1.0' }));
    const value = {
      first: { variables: shared, needs: yamlFlow(['apply-a', 'on', 'a,b', '#c']) },
      second: { variables: shared, needs: yamlFlow([]) },
    };
    const text = yamlText(value);
    assert.match(text, /variables: &module-a \{ PATH: a\/b, /);
    assert.match(text, /variables: \*module-a\n/);
    assert.match(text, /needs: \[apply-a, /);
    for (const version of ['1.1', '1.2'] as const) assert.deepEqual(read(text, version), value);
  });

  test('plain where it is safe, quoted where YAML 1.1 would read something else', () => {
    assert.equal(yamlText({ a: 'eu-central-1' }), 'a: eu-central-1\n');
    assert.equal(yamlText({ on: 'yes' }), '"on": "yes"\n');
    assert.equal(yamlText({ a: 'cd network/vpc' }), 'a: cd network/vpc\n');
    assert.equal(yamlText({ a: '1.10' }), 'a: "1.10"\n');
  });

  test('nesting: mappings, lists, lists of mappings, empty collections, numbers, booleans, null', () => {
    const value = {
      stages: ['a', 'b'],
      empty: [],
      none: {},
      job: {
        needs: [
          { job: 'x', artifacts: false },
          { job: 'y', artifacts: true, nested: { deep: [1, 2.5, null] } },
        ],
        steps: [{ with: { name: 'n', list: ['p'] }, run: 'echo' }, {}, [], ['inner', ['deeper']]],
        retry: 2,
        flag: true,
        nothing: null,
      },
    };
    assert.deepEqual(read(yamlText(value), '1.1'), value);
    assert.equal(yamlText({ needs: [{ job: 'x', artifacts: false }] }), 'needs:\n  - job: x\n    artifacts: false\n');
  });

  test('undefined values are left out; a mapping with nothing else left is {}', () => {
    const value = { a: { b: undefined }, list: [{ c: undefined }, { d: 1, e: undefined }], f: undefined, g: 'x' };
    assert.equal(yamlText(value), 'a: {}\nlist:\n  - {}\n  - d: 1\ng: x\n');
    assert.deepEqual(read(yamlText(value), '1.1'), JSON.parse(JSON.stringify(value)));
  });

  test('more distinct keys than the writer remembers: still each written once, in order', () => {
    const many = Object.fromEntries(Array.from({ length: 12_000 }, (_, i) => [`key${i}`, { [`inner${i}`]: i }]));
    const value = { first: many, again: many };
    assert.deepEqual(read(yamlText(value), '1.2'), value);
  });

  test('a constant is written as the same value would be, at every place and indentation it appears', () => {
    const make = () => ({ name: 'Init', with: { list: ['a', 'yes'], nested: { deep: true } } });
    const shape = (step: object) => ({ steps: [step, step], job: { step, again: [[step]] }, top: step });
    const constant = yamlConstant(make());
    assert.equal(yamlText(shape(constant)), yamlText(shape(make())));
    assert.equal(yamlText(shape(constant)), yamlText(shape(make())), 'and again, from the texts kept');
    assert.ok(Object.isFrozen(constant.with.list), 'frozen all the way down');
  });

  test('the fixture pipelines read back as the objects that were written, job by job', async () => {
    const options = defaultPipelineOptions();
    /** A CI file as one object: the head's keys, then the templates and jobs (at the top level, or under `jobsKey`). */
    const whole = (file: CiFile) => {
      const jobs = Object.fromEntries([...(file.templates ?? []), ...file.jobs]);
      return file.jobsKey === undefined ? { ...file.head, ...jobs } : { ...file.head, [file.jobsKey]: jobs };
    };
    for (const fixture of ['examples/monorepo', 'test/fixtures/pipeline-local-backend']) {
      const result = await analyzeDirectory(path.resolve(__dirname, '../..', fixture));
      const plan = planPipeline(result);
      const github = githubWorkflow(plan, options.github, options.execution, 'none');
      const files = {
        gitlab: gitlabPipeline(plan, options.gitlab, options.execution, 'none'),
        github: github.workflow,
      };
      for (const ci of CI_SYSTEMS) {
        const { text, companions } = generatePipeline(result, { ci, options });
        assert.deepEqual(read(text, '1.1'), JSON.parse(JSON.stringify(whole(files[ci]))), `${fixture}, ${ci}`);
        if (ci === 'github')
          assert.deepEqual(read(companions[0]!.text, '1.1'), JSON.parse(JSON.stringify(whole(github.module!))));
      }
    }
  });
});
