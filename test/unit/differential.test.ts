import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parse as hcl2json } from '@cdktf/hcl2json';
import type { Parser } from 'web-tree-sitter';
import { evaluate, findUnknown, type Value } from '../../server/src/engine/evaluation';
import type { Expr, HclBody } from '../../server/src/engine/hcl';
import { parseHclDocument } from '../treeSitter/hclDocument';
import { hclParser } from '../treeSitter/hclParser';
import { hclFiles } from './hclFiles';

/**
 * Our parser and evaluator against HashiCorp's own HCL parser (hcl/v2 compiled to WASM, via
 * @cdktf/hcl2json) on every HCL file of the fixtures, the examples and our samples: every
 * attribute whose expression is literal must evaluate to exactly hcl2json's value, and a file
 * hcl2json rejects must get a syntax error from us too.
 */

const REPOSITORY = path.resolve(__dirname, '..', '..');
const ROOTS = ['test/fixtures', 'examples', 'test/unit/samples'];
const HCL_FILE = /\.(tf|tfvars|tfbackend|hcl)$/;

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

function isJsonObject(value: Json | undefined): value is { [key: string]: Json } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** hcl2json writes strings as templates of Terraform's JSON syntax: `$${` and `%%{` stand for `${` and `%{`. */
function decodeJsonTemplates(value: Json): Json {
  if (typeof value === 'string') return value.replace(/([$%])\1\{/g, '$1{');
  if (Array.isArray(value)) return value.map(decodeJsonTemplates);
  if (isJsonObject(value)) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, decodeJsonTemplates(item)]));
  }
  return value;
}

/** Literal by shape: what hcl2json turns into a JSON value instead of `"${…}"` source text. */
function isLiteralShape(expr: Expr): boolean {
  switch (expr.kind) {
    case 'literal':
      return true;
    case 'tuple':
      return expr.items.every(isLiteralShape);
    case 'object':
      return expr.items.every((item) => item.key.kind === 'literal' && isLiteralShape(item.value));
    case 'unary':
      return expr.op === '-' && expr.operand.kind === 'literal' && typeof expr.operand.value === 'number';
    default:
      return false;
  }
}

interface Tally {
  compared: number;
}

/** Walks our body and hcl2json's object side by side: blocks are `type → label… → [bodies]`. */
function compareBody(body: HclBody, json: Json | undefined, where: string, tally: Tally): void {
  assert.ok(isJsonObject(json), `${where}: hcl2json has a body here`);
  const names = body.attributes.map((attribute) => attribute.name);
  for (const attribute of body.attributes) {
    if (names.indexOf(attribute.name) !== names.lastIndexOf(attribute.name)) continue;
    if (!isLiteralShape(attribute.expr)) continue;
    const ours: Value = evaluate(attribute.expr, new Map());
    assert.equal(findUnknown(ours), undefined, `${where}.${attribute.name} is known`);
    assert.deepEqual(ours, decodeJsonTemplates(json[attribute.name]), `${where}.${attribute.name}`);
    tally.compared++;
  }
  const seen = new Map<string, number>();
  for (const block of body.blocks) {
    if (!block.body) continue;
    const path = [block.type, ...block.labels];
    const key = JSON.stringify(path);
    const occurrence = seen.get(key) ?? 0;
    seen.set(key, occurrence + 1);
    let node: Json | undefined = json;
    for (const step of path) node = isJsonObject(node) ? node[step] : undefined;
    assert.ok(Array.isArray(node), `${where}: hcl2json has the block ${path.join(' ')}`);
    compareBody(block.body, node[occurrence], `${where} > ${path.join('.')}[${occurrence}]`, tally);
  }
}

describe('differential: our parser and evaluator against hcl2json', () => {
  let parser: Parser;
  const tally: Tally = { compared: 0 };
  const files = ROOTS.flatMap((root) => hclFiles(path.join(REPOSITORY, root), HCL_FILE));
  let rejected = 0;

  before(async () => {
    parser = await hclParser();
  });

  after(() => {
    console.log(
      `differential: ${files.length} files, ${tally.compared} literal attributes equal to hcl2json's, ` +
        `${rejected} files rejected by both`,
    );
  });

  test('finds the HCL files', () => {
    assert.ok(files.length >= 3, `found ${files.length}`);
  });

  for (const file of files) {
    const name = path.relative(REPOSITORY, file);
    test(name, async () => {
      const text = readFileSync(file, 'utf8');
      const ours = parseHclDocument(parser, text);
      let theirs: Json;
      try {
        theirs = (await hcl2json(name, text)) as Json;
      } catch (error) {
        rejected++;
        assert.ok(ours.errors.length > 0, `hcl2json rejects ${name} (${String(error).slice(0, 200)}); so must we`);
        return;
      }
      assert.deepEqual(ours.errors, [], `hcl2json accepts ${name}; so must we`);
      compareBody(ours.body, theirs, name, tally);
    });
  }

  test('compared a meaningful number of attributes', () => {
    assert.ok(tally.compared >= 30, `compared ${tally.compared}`);
  });
});
