import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { hole, showTemplate, template } from '../../server/src/engine/evaluation';
import { unify } from '../../server/src/engine/state';

const v = (name: string) => hole(name, [`${name} has no default`]);
const ws = hole('terraform.workspace', ['the workspace is chosen at run time'], true);

describe('address templates', () => {
  test('texts are joined and empty texts dropped', () => {
    assert.deepEqual(template('a', '', 'b', v('var.x'), '', 'c', 'd'), ['ab', v('var.x'), 'cd']);
    assert.equal(showTemplate(template(v('var.stack'), '/search.tfstate')), '${var.stack}/search.tfstate');
  });

  test('literal addresses fit when equal', () => {
    assert.deepEqual(unify(template('a/terraform.tfstate'), template('a/terraform.tfstate')), []);
    assert.equal(unify(template('a/terraform.tfstate'), template('b/terraform.tfstate')), undefined);
    assert.equal(unify(template('a'), template('ab')), undefined);
  });

  test("a writer's hole takes the reader's text", () => {
    assert.deepEqual(unify(template('blue/search.tfstate'), template(v('var.stack'), '/search.tfstate')), [
      { hole: 'var.stack', side: 'writer', value: 'blue' },
    ]);
    assert.deepEqual(unify(template(v('var.stack'), '/search.tfstate'), template('blue/search.tfstate')), [
      { hole: 'var.stack', side: 'reader', value: 'blue' },
    ]);
  });

  test('a variable may span segments; a workspace is exactly one', () => {
    assert.deepEqual(unify(template('team/app/search.tfstate'), template(v('var.prefix'), '/search.tfstate')), [
      { hole: 'var.prefix', side: 'writer', value: 'team/app' },
    ]);
    const reader = template('acct/vpc/eks/live/terraform.tfstate');
    assert.deepEqual(unify(reader, template('acct/vpc/eks/', ws, '/terraform.tfstate')), [
      { hole: 'terraform.workspace', side: 'writer', value: 'live' },
    ]);
    assert.equal(unify(reader, template('acct/vpc/', ws, '/terraform.tfstate')), undefined);
  });

  test('a hole stands for at least one character', () => {
    assert.equal(unify(template('/search.tfstate'), template(v('var.stack'), '/search.tfstate')), undefined);
    assert.equal(unify(template('search.tfstate'), template(v('var.stack'), 'search.tfstate')), undefined);
  });

  test('holes on both sides fit where the known text agrees, and stay unknown', () => {
    const reader = template(v('var.prefix'), '/20-vpc/terraform.tfstate');
    assert.deepEqual(unify(reader, template(v('var.env'), '/20-vpc/terraform.tfstate')), [
      { hole: 'var.prefix', side: 'reader', value: undefined },
      { hole: 'var.env', side: 'writer', value: undefined },
    ]);
    assert.equal(unify(reader, template(v('var.env'), '/30-eks/terraform.tfstate')), undefined);
    // The reader's known text must appear in the writer's, around the holes.
    assert.ok(unify(template('env:/', ws, '/app/terraform.tfstate'), template('env:/prod/app/terraform.tfstate')));
    assert.equal(unify(template('env:/', ws, '/app/terraform.tfstate'), template('app/terraform.tfstate')), undefined);
  });

  test('several holes in a row and in both templates', () => {
    const bindings = unify(
      template('s3://', v('bucket'), '/', v('var.a'), '-', v('var.b'), '.tfstate'),
      template('s3://acme/x-y.tfstate'),
    );
    assert.deepEqual(bindings, [
      { hole: 'bucket', side: 'reader', value: 'acme' },
      { hole: 'var.a', side: 'reader', value: 'x' },
      { hole: 'var.b', side: 'reader', value: 'y' },
    ]);
    assert.ok(unify(template(v('a'), 'x', v('b')), template(v('c'), 'y', v('d'))));
    assert.equal(unify(template(ws, 'x'), template('a/bx')), undefined);
  });

  test('long addresses stay quick', () => {
    const long = 'segment/'.repeat(40);
    const started = performance.now();
    for (let n = 0; n < 200; n++)
      unify(template(long, v('var.x'), '/terraform.tfstate'), template(long, 'abc/terraform.tfstate'));
    assert.ok(performance.now() - started < 2000);
  });
});
