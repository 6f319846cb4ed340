// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the strings are HCL sources, whose interpolations look like JS ones
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { Parser } from 'web-tree-sitter';
import {
  type EvalScope,
  evaluate,
  formatNumber,
  formatValue,
  isUnknown,
  type Unknown,
  unknown,
  type Value,
} from '../../server/src/engine/evaluation';
import { parseHclExpression } from '../treeSitter/hclDocument';
import { hclParser } from '../treeSitter/hclParser';

let parser: Parser;
before(async () => {
  parser = await hclParser();
});

const scope: EvalScope = new Map<string, Value>([
  ['local', { env: 'prod', list: ['a', 'b', 'c'], map: { b: 2, a: 1 } }],
  ['var', { missing: unknown('var.missing has no default') }],
  ['path', { module: '.', cwd: '/repo/stacks/app' }],
]);

function run(source: string, within: EvalScope = scope): Value {
  return evaluate(parseHclExpression(parser, source), within);
}

/** Each case: expression → exact value. */
function table(name: string, cases: [string, Value][]): void {
  describe(name, () => {
    for (const [source, expected] of cases) test(source, () => assert.deepEqual(run(source), expected));
  });
}

/** Each case: expression → the unknown's reasons (a regular expression for the first one). */
function failures(name: string, cases: [string, RegExp][]): void {
  describe(name, () => {
    for (const [source, pattern] of cases) {
      test(source, () => {
        const value = run(source);
        assert.ok(isUnknown(value), `expected an unknown, got ${JSON.stringify(value)}`);
        assert.match((value as Unknown).reasons[0], pattern);
      });
    }
  });
}

table('format', [
  ['format("%s/%s/terraform.tfstate", "platform", local.env)', 'platform/prod/terraform.tfstate'],
  ['format("%d", 42)', '42'],
  ['format("%d", "42")', '42'],
  ['format("%05d", 42)', '00042'],
  ['format("%-5d|", 42)', '42   |'],
  ['format("%5s|", "ab")', '   ab|'],
  ['format("%+d", 5)', '+5'],
  ['format("%v %v %v", "s", 1.5, true)', 's 1.5 true'],
  ['format("%v", [1, "a"])', '[1,"a"]'],
  ['format("%#v", "s")', '"s"'],
  ['format("%#v", { b = 1, a = "x" })', '{"a":"x","b":1}'],
  ['format("%q", "say \\"hi\\"")', '"say \\"hi\\""'],
  ['format("100%%")', '100%'],
  ['format("%.2f", 3.14159)', '3.14'],
  ['format("%8.3f|", 3.14159)', '   3.142|'],
  ['format("%e", 1234.5)', '1.234500e+03'],
  ['format("%x %X %o %b", 255, 255, 8, 5)', 'ff FF 10 101'],
  ['format("%t", true)', 'true'],
  ['format("%[2]s-%[1]s", "a", "b")', 'b-a'],
  ['format("%.3s", "abcdef")', 'abc'],
  ['format("%s", 1)', '1'],
]);

failures('format errors', [
  ['format("%s %s", "a")', /too few arguments/],
  ['format("%s", "a", "b")', /left over/],
  ['format("%d", 1.5)', /whole number/],
  ['format("%s", [1])', /a string is required/],
  ['format("%s", var.missing)', /var\.missing has no default/],
]);

table('formatlist', [
  ['formatlist("%s-%s", ["a", "b"], "x")', ['a-x', 'b-x']],
  ['formatlist("%s=%d", ["a", "b"], [1, 2])', ['a=1', 'b=2']],
  ['formatlist("%s", "only")', ['only']],
]);

table('strings', [
  ['join("/", ["a", "b", "c"])', 'a/b/c'],
  ['join(",", ["a"], ["b", "c"])', 'a,b,c'],
  ['join(",", [])', ''],
  ['join("-", [1, true])', '1-true'],
  ['split(",", "a,b,,c")', ['a', 'b', '', 'c']],
  ['split(",", "")', ['']],
  ['replace("a-b-c", "-", "_")', 'a_b_c'],
  ['replace("prod/vpc/terraform.tfstate", "/\\\\.tfstate$/", "")', 'prod/vpc/terraform'],
  ['replace("a1b22", "/([a-z])(\\\\d+)/", "$2$1")', '1a22b'],
  ['replace("hello", "/(?P<first>h)/", "$${first}H")', 'hHello'],
  ['regex("[a-z]+", "123abc456")', 'abc'],
  ['regex("(\\\\d+)-(\\\\d+)", "10-20")', ['10', '20']],
  ['regex("(?P<env>[a-z]+)/(?P<region>[a-z0-9-]+)", "prod/eu-west-1")', { env: 'prod', region: 'eu-west-1' }],
  ['regexall("[0-9]+", "a1b22c333")', ['1', '22', '333']],
  ['regexall("x", "abc")', []],
  // Each answer below is real Terraform's (terraform console): Go's RE2, not JavaScript's RegExp.
  ['regex("(a)|(b)", "b")', [null, 'b']],
  ['regex("(?P<x>a)|(?P<y>b)", "b")', { x: null, y: 'b' }],
  ['regex("(?i)ABC", "xabc")', 'abc'],
  ['regex("[[:alpha:]]+", "12ab3")', 'ab'],
  ['regex("\\\\Aab\\\\z", "ab")', 'ab'],
  ['regexall("a*", "baaac")', ['', 'aaa', '']],
  ['replace("baaac", "/a*/", "-")', '-b-c-'],
  ['replace("abc", "/(b)/", "$1x")', 'ac'],
  ['replace("abc", "/(b)/", "$${1}x")', 'abxc'],
  ['replace("abc", "/(?P<n>b)/", "[$n]")', 'a[b]c'],
  ['replace("a$c", "/c/", "$$")', 'a$$'],
  ['replace("abc", "/b/", "$-")', 'a$-c'],
  ['replace("abc", "/(b)/", "$${1")', 'a${1c'],
  ['lower("ABC")', 'abc'],
  ['upper("abc")', 'ABC'],
  ['title("hello big world")', 'Hello Big World'],
  ['trim("?!hello?!", "!?")', 'hello'],
  ['trimprefix("helloworld", "hello")', 'world'],
  ['trimprefix("helloworld", "x")', 'helloworld'],
  ['trimsuffix("prod/vpc/terraform.tfstate", "/terraform.tfstate")', 'prod/vpc'],
  ['trimspace("  a b \\n")', 'a b'],
  ['chomp("line\\n\\n")', 'line'],
  ['substr("hello world", 1, 4)', 'ello'],
  ['substr("hello", -3, -1)', 'llo'],
  ['substr("héllo", 1, 1)', 'é'],
  ['startswith("terraform", "terra")', true],
  ['endswith("terraform", "form")', true],
  ['endswith("terraform", "x")', false],
  ['strcontains("terraform", "rafo")', true],
  ['strrev("abc")', 'cba'],
]);

failures('string errors', [
  ['regex("^x", "abc")', /did not match/],
  ['regex("(", "abc")', /invalid regular expression "\(": .*missing closing \)/],
  ['regex("(?<=a)b", "ab")', /invalid regular expression/],
  ['join(",", [null])', /null/],
  ['upper(var.missing)', /var\.missing has no default/],
  ['join(",", ["a", var.missing])', /var\.missing has no default/],
]);

table('conversions', [
  ['toset(["b", "a", "b"])', ['a', 'b']],
  ['toset([3, 1, 2, 1])', [1, 2, 3]],
  ['toset(["a", 1])', ['1', 'a']],
  ['tolist(toset(["c", "a"]))', ['a', 'c']],
  ['tolist(["a", 1, true])', ['a', '1', 'true']],
  ['tomap({ a = 1, b = "x" })', { a: '1', b: 'x' }],
  ['tomap({ a = 1, b = 2 })', { a: 1, b: 2 }],
  ['tostring(1)', '1'],
  ['tostring(1.25)', '1.25'],
  ['tostring(true)', 'true'],
  ['tostring(null)', null],
  ['tonumber("42")', 42],
  ['tonumber("1.5")', 1.5],
  ['tonumber(7)', 7],
  ['tobool("true")', true],
  ['tobool(false)', false],
]);

failures('conversion errors', [
  ['tonumber("abc")', /a number is required/],
  ['tostring([1])', /a string is required/],
  ['tobool("yes")', /a bool is required/],
]);

table('collections', [
  ['concat(["a"], ["b", "c"], [])', ['a', 'b', 'c']],
  ['concat()', []],
  ['lookup({ a = 1 }, "a")', 1],
  ['lookup({ a = 1 }, "b", "default")', 'default'],
  ['lookup(local.map, "b", 0)', 2],
  ['merge({ a = 1, b = 2 }, { b = 3, c = 4 })', { a: 1, b: 3, c: 4 }],
  ['merge({ a = 1 }, null)', { a: 1 }],
  ['merge()', {}],
  ['merge({ a = var.missing }, { b = 1 })', { a: unknown('var.missing has no default'), b: 1 }],
  ['coalesce("", null, "x", "y")', 'x'],
  ['coalesce(null, 2)', 2],
  ['coalesce(1, "a")', '1'],
  ['coalesce("a", var.missing)', 'a'],
  ['coalescelist([], ["a"], ["b"])', ['a']],
  ['element(["a", "b", "c"], 1)', 'b'],
  ['element(["a", "b", "c"], 4)', 'b'],
  ['keys({ b = 1, a = 2, c = 3 })', ['a', 'b', 'c']],
  ['values({ b = 1, a = 2, c = 3 })', [2, 1, 3]],
  ['length("héllo")', 5],
  ['length(["a", "b"])', 2],
  ['length({ a = 1 })', 1],
  ['length("")', 0],
  ['contains(["a", "b"], "b")', true],
  ['contains(["a", "b"], "z")', false],
  ['contains([1, 2], "1")', false],
  ['distinct(["b", "a", "b", "c", "a"])', ['b', 'a', 'c']],
  ['flatten([["a", ["b"]], [], "c"])', ['a', 'b', 'c']],
  ['compact(["a", "", null, "b"])', ['a', 'b']],
  ['reverse([1, 2, 3])', [3, 2, 1]],
  ['sort(["b", "a", "C"])', ['C', 'a', 'b']],
  ['sort([10, 9])', ['10', '9']],
  ['range(3)', [0, 1, 2]],
  ['range(1, 4)', [1, 2, 3]],
  ['range(0, 10, 5)', [0, 5]],
  ['range(3, 0)', [3, 2, 1]],
  ['range(0)', []],
  ['zipmap(["a", "b"], [1, 2])', { a: 1, b: 2 }],
  ['slice(["a", "b", "c", "d"], 1, 3)', ['b', 'c']],
  ['index(["a", "b", "c"], "b")', 1],
  ['one([])', null],
  ['one(["x"])', 'x'],
  ['setunion(["b", "a"], ["c", "a"])', ['a', 'b', 'c']],
  ['setintersection(["a", "b"], ["b", "c"])', ['b']],
  ['setsubtract(["a", "b", "c"], ["b"])', ['a', 'c']],
  ['sum([1, 2, 3.5])', 6.5],
  ['alltrue([true, "true"])', true],
  ['anytrue([false])', false],
  ['concat(local.list, ["d"])', ['a', 'b', 'c', 'd']],
  ['lookup(merge(local.map, { z = 26 }), "z")', 26],
  ['toset(local.list)', ['a', 'b', 'c']],
  ['join("-", [["a"], ["b", "c"]]...)', 'a-b-c'],
]);

failures('collection errors', [
  ['lookup({ a = 1 }, "b")', /no key "b"/],
  ['element([], 0)', /empty list/],
  ['one(["a", "b"])', /zero or one/],
  ['index(["a"], "z")', /no such element/],
  ['slice(["a"], 0, 5)', /out of range/],
  ['zipmap(["a"], [])', /same length/],
  ['coalesce("", null)', /no non-null/],
  ['coalesce(var.missing, "a")', /var\.missing has no default/],
  ['merge({ a = 1 }, "x")', /map or object is required/],
  ['concat(["a"], "b")', /a list is required/],
  ['length(null)', /length\(\) needs/],
  ['lookup()', /takes 2 to 3 arguments, got 0/],
  ['range(0, 1, 0)', /step must not be zero/],
]);

table('numbers', [
  ['min(3, 1, 2)', 1],
  ['max(3, 1, 2)', 3],
  ['max([5, 9]...)', 9],
  ['abs(-2.5)', 2.5],
  ['ceil(1.2)', 2],
  ['floor(-1.2)', -2],
  ['signum(-3)', -1],
  ['pow(2, 10)', 1024],
  ['parseint("ff", 16)', 255],
  ['parseint("-101", 2)', -5],
]);

table('encodings', [
  [
    'jsonencode({ b = [1, 2.5, true], a = null, s = "<x> & y" })',
    '{"a":null,"b":[1,2.5,true],"s":"\\u003cx\\u003e \\u0026 y"}',
  ],
  ['jsonencode("a\\nb")', '"a\\nb"'],
  ['jsondecode("{\\"a\\": [1, \\"x\\", null]}")', { a: [1, 'x', null] }],
  ['jsondecode(jsonencode({ k = "v" })).k', 'v'],
]);

test('a pattern that backtracks without end in JavaScript answers at once, as in Terraform', {
  timeout: 10_000,
}, () => {
  // JavaScript's RegExp takes longer than the age of the universe on this; Go's RE2 answers in microseconds.
  const text = `${'a'.repeat(44)}!`;
  assert.equal(run(`replace("${text}", "/^(a+)+$/", "")`), text);
  assert.equal(run(`can(regex("^(a|aa)+$", "${text}"))`), false);
  assert.deepEqual(run(`regexall("(a+)+b", "${text}")`), []);
});

test('coalesce() of empty arguments is unknown until run time, not an error', () => {
  const value = run('"${coalesce("", null)}/monitoring.tfstate"');
  assert.ok(isUnknown(value));
  assert.equal(value.error, undefined);
  assert.deepEqual(
    value.text?.map((part) => (typeof part === 'string' ? part : part.hole)),
    ['coalesce(…)', '/monitoring.tfstate'],
  );
});

failures('encoding errors', [['jsondecode("{")', /invalid JSON/]]);

table('paths', [
  ['abspath("x/../y")', '/repo/stacks/app/y'],
  ['abspath("/etc/./hosts")', '/etc/hosts'],
  ['dirname("a/b/c.txt")', 'a/b'],
  ['dirname("c.txt")', '.'],
  ['dirname("/c.txt")', '/'],
  ['dirname("a/b/")', 'a/b'],
  ['basename("a/b/c.txt")', 'c.txt'],
  ['basename("a/b/")', 'b'],
  ['basename("")', '.'],
  ['dirname(path.module)', '.'],
]);

describe('functions that are not evaluated statically', () => {
  for (const name of ['file', 'templatefile', 'fileexists', 'timestamp', 'uuid', 'pathexpand', 'filemd5']) {
    test(name, () => {
      const value = run(`${name}("x")`);
      assert.deepEqual(value, { unknown: true, reasons: [`${name}() is not evaluated statically`] });
    });
  }
  test('abspath of a relative path without path.cwd', () => {
    assert.deepEqual(run('abspath("x")', new Map()), {
      unknown: true,
      reasons: ['abspath() of a relative path needs path.cwd'],
    });
  });
  test('an unknown function', () => {
    assert.deepEqual(run('provider::aws::arn_parse("x")'), {
      unknown: true,
      reasons: ['function provider::aws::arn_parse() is not supported'],
    });
  });
  test('unknown arguments propagate with their reasons', () => {
    assert.deepEqual(run('format("%s-%s", var.missing, data.x.y.z)'), {
      unknown: true,
      reasons: ['var.missing has no default', 'data.x.y is only known after apply'],
    });
  });
});

describe('number formatting', () => {
  const cases: [number, string][] = [
    [1, '1'],
    [1.5, '1.5'],
    [-0, '0'],
    [1e21, '1000000000000000000000'],
    [1e-7, '0.0000001'],
    [1.25e-7, '0.000000125'],
    [123456789012, '123456789012'],
  ];
  for (const [n, text] of cases) test(String(n), () => assert.equal(formatNumber(n), text));
  test('formatValue directly', () => assert.equal(formatValue('%s=%03d', ['a', 7]), 'a=007'));
});
