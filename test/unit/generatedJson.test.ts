// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the strings are Terraform JSON, whose interpolations look like JS ones
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { tfJsonDocument } from '../../server/src/engine/hcl';
import { evaluateModule, factsFromDocument, keepBody } from '../../server/src/engine/workspace';

/** Generated `.tf.json`: names placed in document order, and only what the analysis reads converted and evaluated. */
describe('generated .tf.json', () => {
  test('each name is placed where it is in the document, not at its first occurrence', () => {
    const text = JSON.stringify(
      {
        data: {
          terraform_remote_state: {
            vpc: { backend: 's3', config: { bucket: 'a', key: 'vpc.tfstate' } },
            dns: { backend: 's3', config: { bucket: 'a', key: 'dns.tfstate' } },
          },
        },
      },
      null,
      2,
    );
    const blocks = tfJsonDocument(text, { keepBody }).body.blocks;
    const lineOf = (needle: string, from = 0) => text.slice(0, text.indexOf(needle, from)).split('\n').length - 1;
    assert.deepEqual(
      blocks.map((block) => [block.labels[1], block.range.start.line, block.body!.attributes[0]!.range.start.line]),
      [
        ['vpc', lineOf('"vpc"'), lineOf('"backend"')],
        ['dns', lineOf('"dns"'), lineOf('"backend"', text.indexOf('"dns"'))],
      ],
    );
  });

  test('a local that no remote-state read or local module call reaches is never evaluated', () => {
    const locals: Record<string, string> = {
      vpc_key: '${local.stack}/vpc.tfstate',
      stack: 'blue',
      // Unreached: a cycle among them would be reported if they were evaluated.
      loop_a: '${local.loop_b}',
      loop_b: '${local.loop_a}',
      // Reached: its cycle is reported.
      bucket: '${local.bucket_again}',
      bucket_again: '${local.bucket}',
    };
    for (let i = 0; i < 1000; i++) locals[`generated_${i}`] = `\${format("%s-%d", local.stack, ${i})}`;
    const text = JSON.stringify({
      terraform: { backend: { local: {} } },
      locals,
      data: {
        terraform_remote_state: {
          vpc: { backend: 's3', config: { bucket: 'acme', key: '${local.vpc_key}', region: 'eu-west-1' } },
          cyclic: { backend: 's3', config: { bucket: '${local.bucket}', key: 'x.tfstate', region: 'eu-west-1' } },
        },
      },
    });
    const facts = factsFromDocument(tfJsonDocument(text, { keepBody }));
    const module = evaluateModule(
      {
        id: 'app',
        dir: '/w/app',
        files: [{ file: '/w/app/main.tf.json', facts }],
        varFiles: [],
        backendFiles: [],
        terraformWorkspace: undefined,
      },
      () => undefined,
    );
    assert.deepEqual(
      module.problems.map((problem) => problem.message),
      ['local.bucket -> local.bucket_again -> local.bucket is a cycle'],
    );
    const config = module.references.find((reference) => reference.name === 'vpc')!.config as Record<string, unknown>;
    assert.equal(config['key'], 'blue/vpc.tfstate');
  });

  test('a string is a template as Terraform reads it: quotes inside an interpolation, $${ for a literal ${', () => {
    const text = JSON.stringify({
      locals: { env: 'blue' },
      data: {
        terraform_remote_state: {
          vpc: {
            backend: 's3',
            config: {
              bucket: 'acme',
              key: '${format("%s/%s", local.env, "vpc.tfstate")}',
              region: 'eu-west-1',
            },
            workspace: '$${literal}-${upper("x")}',
          },
        },
      },
    });
    const facts = factsFromDocument(tfJsonDocument(text, { keepBody }));
    const module = evaluateModule(
      {
        id: 'app',
        dir: '/w/app',
        files: [{ file: '/w/app/main.tf.json', facts }],
        varFiles: [],
        backendFiles: [],
        terraformWorkspace: undefined,
      },
      () => undefined,
    );
    const reference = module.references.find((candidate) => candidate.name === 'vpc')!;
    assert.equal((reference.config as Record<string, unknown>)['key'], 'blue/vpc.tfstate');
    assert.equal(reference.workspace, '${literal}-X');
  });

  test('each key and value placed where it is written: a repeated key (the last kept), an integer key, escapes', () => {
    const text = [
      '{',
      '  "locals": {',
      '    "2": "two",',
      '    "a\\u0062c": "${local.abc_x}",',
      '    "dup": "first",',
      '    "dup": "\\"${local.second}"',
      '  }',
      '}',
    ].join('\n');
    const locals = tfJsonDocument(text, { keepBody }).body.blocks[0]!.body!.attributes;
    const placed = locals.map((attr) => {
      const step = attr.expr.kind === 'template' ? attr.expr.parts.find((part) => typeof part !== 'string') : undefined;
      const inner = step && typeof step !== 'string' && 'range' in step ? step.range.start : undefined;
      return [attr.name, attr.nameRange.start, inner];
    });
    assert.deepEqual(placed, [
      ['2', { line: 2, character: 5 }, undefined],
      ['abc', { line: 3, character: 5 }, { line: 3, character: 19 }],
      ['dup', { line: 5, character: 5 }, { line: 5, character: 16 }],
    ]);
  });
});
