import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseHcl, salvageBlocks } from '../../server/src/engine/hcl';

const salvage = (text: string) => salvageBlocks(text, parseHcl(text), {});

describe('block salvage', () => {
  test('an unclosed brace does not take the blocks after it along', () => {
    const text = [
      'locals { y = {',
      'terraform {',
      '  backend "s3" {}',
      '}',
      '',
      'data "terraform_remote_state" "vpc" {',
      '  backend = "s3"',
      '}',
      '',
    ].join('\n');
    const whole = parseHcl(text);
    assert.ok(whole.errors.length > 0);
    assert.deepEqual(
      whole.body.blocks.map((block) => block.type),
      ['locals'],
      'the parse alone: everything inside the unclosed block',
    );
    const salvaged = salvage(text);
    assert.deepEqual(salvaged.errors, whole.errors, "the whole text's errors, as Terraform reports them");
    assert.deepEqual(
      salvaged.body.blocks.map((block) => [block.type, ...block.labels, block.range.start.line]),
      [
        ['terraform', 1],
        ['data', 'terraform_remote_state', 'vpc', 5],
      ],
    );
    assert.equal(salvaged.body.blocks[0]!.body!.blocks[0]!.labels[0], 's3');
  });

  test("what the parse recovered inside a broken block is kept when it stays within that block's lines", () => {
    const text = [
      'data "terraform_remote_state" "vpc" {',
      '  backend = "s3"',
      '  workspace = = "x"',
      '}',
      'module "net" {',
      '  source = "./net"',
      '}',
      '',
    ].join('\n');
    const salvaged = salvage(text);
    assert.deepEqual(
      salvaged.body.blocks.map((block) => [block.type, block.range.start.line]),
      [
        ['data', 0],
        ['module', 4],
      ],
    );
    assert.equal(salvaged.body.blocks[0]!.body!.attributes[0]!.name, 'backend');
  });

  test('a text without another block start is left as the parse made it', () => {
    const text = 'a = = 1\nb = 2\n';
    const whole = parseHcl(text);
    assert.equal(salvageBlocks(text, whole, {}), whole);
  });
});
