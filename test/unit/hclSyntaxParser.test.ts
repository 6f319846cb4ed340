// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the strings are HCL sources, whose interpolations look like JS ones
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import type { Parser } from 'web-tree-sitter';
import { evaluate } from '../../server/src/engine/evaluation';
import {
  type HclBlock,
  type HclDocument,
  type HclSyntaxError,
  type ParseOptions,
  parseHcl,
} from '../../server/src/engine/hcl';
import { keepBody } from '../../server/src/engine/workspace';
import { seededRandom } from '../seededRandom';
import { parseHclDocument } from '../treeSitter/hclDocument';
import { hclParser } from '../treeSitter/hclParser';
import { hclFiles } from './hclFiles';

/**
 * `parseHcl` (hand-written) against `parseHclDocument` (tree-sitter): the same document for every
 * input tree-sitter accepts, with and without the analysis's `keepBody` filter; for broken input,
 * a syntax error on a line where tree-sitter has one, and the blocks before it kept.
 */

let parser: Parser;
before(async () => {
  parser = await hclParser();
});

const REPOSITORY = path.resolve(__dirname, '..', '..');
const ROOTS = ['test/fixtures', 'examples', 'test/unit/samples', 'test/vscode/workspace'];
const HCL_FILE = /\.(tf|tfvars|tfbackend)$/;
const OPTIONS: [string, ParseOptions][] = [
  ['every body', {}],
  ['keepBody', { keepBody }],
];

/** Inputs tree-sitter accepts, each about one feature; together every kind of expression. */
const SNIPPETS: Record<string, string> = {
  literals: 'a = 1\nb = 1.5\nc = 1.25e-3\nd = 0x1F\ne = true\nf = false\ng = null\nh = "s"\ni = ""\nj = 0xZZ\n',
  'traversals and the legacy index a.0.b':
    'a = local.a.b["c"][0]\nb = a.0.b\nc = a.0.1\nd = a . b\ne = a /* c */ . /* d */ b\nf = true.x\n',
  'calls and ... expansion':
    'a = f()\nb = f(1, 2,)\nc = f(x, y...)\nd = provider::aws::arn_parse(x)\ne = f (1)\nf = f(\n  1,\n  2\n)\n',
  'operators and precedence':
    'a = 1 + 2 * 3 - 4 / 5 % 6\nb = a || b && !c\nc = -a.b + 1\nd = !a == b\ne = 1 < 2 == 2 >= 1\nf = (1 + 2) * 3\ng = - -1\nh = a\n  + b\n',
  // Not `a ? b : c ? d : e`: the grammar groups it to the left, HCL to the right (tested below).
  conditionals: 'a = x ? 1 : 2\nc = a ? b ? c : d : e\nd = (a) ? (b) : (c)\ne = a + b ? c : d || e\n',
  'tuples and objects, keys "a" = 1, (k) = 1, a: 1':
    'a = []\nb = [1, "x", [2],]\nc = {}\nd = { a = 1, "b" = 2, (k) = 3, c: 4, true = 5, a.b = 6 }\ne = {\n  x = 1\n  y = 2\n}\nf = { a = 1 b = 2 }\n',
  'for expressions':
    'a = [for v in l : v]\nb = [for k, v in m : "${k}=${v}" if v != ""]\nc = {for k, v in m : v => k...}\nd = {for v in l : v => v if v}\ne = [for x in [for y in z : y] : x]\n',
  splats:
    'a = x[*].y\nb = x.*.y\nc = x[*].a[0].b\nd = x.*.a[0].b\ne = f()[*].y\nf = f().*[0]\ng = x[*][*]\nh = (x)[*].y\n',
  'parentheses and postfixes':
    'a = (a)\nb = ((a))\nc = (a).b\nd = (a)[0]\ne = f(1).b[2]\nf = [1][0]\ng = "s"[0]\nh = -(1)\n',
  'templates, nested "${"${x}"}", escapes $${ %%{ \\u00e9':
    'a = "a${b}c"\nb = "${x}"\nc = "${"${x}"}"\nd = "${ {a = "}"}.a }"\ne = "${}"\nf = "$${x} %%{y} $x %x $$ %%"\n' +
    'g = "\\n\\r\\t\\"\\\\\\u00e9\\U0001F600"\nh = "a ${~ b ~} c"\ni = "$$$${x}"\n',
  'template directives with ~':
    'a = "%{ if x }y%{ endif }"\nb = "%{ if x }y%{ else }z%{ endif }"\nc = "%{ for v in l }${v},%{ endfor }"\n' +
    'd = "%{ for k, v in m ~} ${k} %{~ endfor }"\ne = "  %{~ if a ~}  b  %{~ else ~}  c  %{~ endif ~}  "\n' +
    'f = "%{if a}%{for v in l}%{if v}x%{endif}%{endfor}%{endif}"\ng = "${~}${~~}"\n',
  'heredocs <<EOT and <<-EOT':
    'a = <<EOT\nline ${x}\n  two\nEOT\nb = <<-EOT\n    one\n      two ${y}\n    %{ if z }three%{ endif }\n  EOT\nc = <<EOT\nEOT\n' +
    'd = <<EOT\n  EOTX\n  EOT\ne = <<-EOT\n\n    a\n\n    b\n  EOT\nf = <<EOT\n$${not} %%{not} \\n kept\nEOT\n',
  'heredoc marker quirks of the grammar':
    'a = <<EOT\nEOT${x}\nEOT is not the end\n  EOT  \nb = <<EOT ${ignored}\nx\nEOT\n',
  'heredocs with CRLF': 'a = <<EOT\r\none\r\n  two\r\nEOT\r\nb = <<-EOT\r\n    x\r\n  EOT\r\n',
  'non-ASCII text before tokens (UTF-16 columns)':
    'a = "é😀${local.x}"\nb = "ü" # ü\nc = { "ключ" = "值" }\nd = [ "😀", x ]\né = 1\n',
  'CRLF line endings': 'locals {\r\n  a = "x"\r\n  b = [\r\n    1,\r\n  ]\r\n}\r\n',
  'lone CR line breaks': 'a = 1\rb = "x${y}"\r',
  'comments in odd places':
    '# top\nlocals { # after brace\n  a /* before = */ = /* after = */ 1 // trailing\n  b = [ # in tuple\n    1, /* between */ 2\n  ]\n' +
    '  c = f( // in call\n    x\n  )\n  /* block\n  comment */\n}\n// end',
  'one-line blocks a { b = 1 }': 'a { b = 1 }\nc "d" e { f = 2 }\ng {}\nh "i" {\n}\n',
  'labels (in a label ${ is text)': 'x "a\\"b" "${c}" "%{d}" "\\u00e9" id {}\n',
  'a byte order mark; `<<<EOT` after a term is `<` and a heredoc': '\ufeffx = a <<<EOT\nb\nEOT\ny = 1\n',
  'an empty file': '',
  'only comments': '# a\n// b\n/* c\n d */\n',
  'a JSON-like object file': '{ "a": 1, "b": [true] }\n',
  'items without line breaks': 'a = 1 b = 2 c { d = 3 } e = 4\n',
  'split strings and duplicates (reported, beyond syntax)':
    'locals {\n  a = "one\ntwo"\n  b = "x${y}\nz${w}\nv"\n  a = 3\n}\nc = "p\nq"\n',
  'split strings and duplicates in a skipped body (not reported)':
    'resource "r" "n" {\n  a = "one\ntwo"\n  a = 3\n  nested {\n    b = 1\n    b = 2\n  }\n}\n',
  'terraform blocks':
    'terraform {\n  backend "s3" {\n    bucket = "b"\n    key    = "${local.env}/vpc/terraform.tfstate"\n  }\n}\n' +
    'data "terraform_remote_state" "vpc" {\n  backend = "s3"\n  config = {\n    key = "k"\n  }\n}\n' +
    'resource "aws_instance" "web" {\n  ami = "x"\n  nested {\n    a = 1\n  }\n}\nmodule "m" {\n  source = "../m"\n  count  = 2\n}\n',
};

const FILES = ROOTS.flatMap((root) => hclFiles(path.join(REPOSITORY, root), HCL_FILE));

/** Whether tree-sitter's tree has no ERROR or MISSING node (problems beyond syntax do not count). */
function treeSitterAccepts(text: string): boolean {
  const tree = parser.parse(text);
  if (!tree) return false;
  try {
    return !tree.rootNode.hasError;
  } finally {
    tree.delete();
  }
}

function assertSameDocument(text: string): void {
  for (const [label, options] of OPTIONS) {
    assert.deepStrictEqual(parseHcl(text, options), parseHclDocument(parser, text, options), label);
  }
}

describe('the same documents as the tree-sitter path', () => {
  describe('every HCL file of the repository that tree-sitter accepts', () => {
    test('there are files to compare', () => assert.ok(FILES.length > 100, `${FILES.length} files`));
    for (const file of FILES) {
      test(path.relative(REPOSITORY, file), (t) => {
        const text = readFileSync(file, 'utf8');
        if (!treeSitterAccepts(text)) {
          t.skip('tree-sitter reports a syntax error (see the error tests)');
          return;
        }
        assertSameDocument(text);
      });
    }
  });

  describe('snippets', () => {
    for (const [name, text] of Object.entries(SNIPPETS)) {
      test(name, () => {
        assert.ok(treeSitterAccepts(text), 'tree-sitter accepts the snippet');
        assertSameDocument(text);
      });
    }
  });

  test('generated documents: every kind of expression, nested, with odd spacing and comments', () => {
    const random = seededRandom(7);
    let compared = 0;
    for (let i = 0; i < 300; i++) {
      const text = generatedBody(random, 0);
      if (!treeSitterAccepts(text)) continue;
      assertSameDocument(text);
      compared++;
    }
    assert.ok(compared > 200, `${compared} documents compared`);
  });

  test('edited repository files: the same document, or a syntax error from both', () => {
    const random = seededRandom(11);
    const texts = FILES.map((file) => readFileSync(file, 'utf8'));
    for (let i = 0; i < 300; i++) {
      const text = edit(random, texts[Math.floor(random() * texts.length)]!);
      if (treeSitterAccepts(text)) {
        assertSameDocument(text);
        continue;
      }
      for (const [label, options] of OPTIONS) {
        const errors = syntaxErrors(parseHcl(text, options).errors);
        assert.ok(errors.length > 0, `${label}: a syntax error in ${JSON.stringify(text)}`);
      }
    }
  });

  test('keepBody is asked for the same blocks, with the same depths, in the same order', () => {
    const text =
      'resource "aws_instance" "web" {\n  nested {\n    a = 1\n  }\n}\n' +
      'data "terraform_remote_state" "vpc" {\n  config {\n    inner {}\n  }\n}\nlocals {\n  a = 1\n}\n';
    const asked = (parse: (options: ParseOptions) => HclDocument): string[] => {
      const seen: string[] = [];
      parse({
        keepBody: (type, labels, depth) => {
          seen.push(`${depth}:${[type, ...labels].join(' ')}`);
          return type !== 'resource';
        },
      });
      return seen;
    };
    const ours = asked((options) => parseHcl(text, options));
    assert.deepEqual(ours, [
      '0:resource aws_instance web',
      '0:data terraform_remote_state vpc',
      '1:config',
      '2:inner',
      '0:locals',
    ]);
    assert.deepEqual(
      ours,
      asked((options) => parseHclDocument(parser, text, options)),
    );
  });

  test('without options every body is kept', () => {
    const text = 'resource "a" "b" {\n  x = 1\n}\n';
    assert.deepStrictEqual(parseHcl(text), parseHcl(text, { keepBody: () => true }));
    assert.deepEqual(parseHcl(text).body.blocks[0]?.body?.attributes[0]?.name, 'x');
  });
});

// ---- syntax errors ------------------------------------------------------------------------------

const SYNTAX = /^syntax error: (?!quoted strings may not be split)/;

function syntaxErrors(errors: readonly HclSyntaxError[]): HclSyntaxError[] {
  return errors.filter((error) => SYNTAX.test(error.message));
}

/** Errors that both paths report, each on a line tree-sitter's error starts on or spans. */
function sharedLines(ours: readonly HclSyntaxError[], theirs: readonly HclSyntaxError[]): number[] {
  return ours
    .map((error) => error.range.start.line)
    .filter((line) => theirs.some((other) => other.range.start.line <= line && line <= other.range.end.line));
}

/** The blocks tree-sitter keeps that end before its first error: ours must keep them too. */
function assertKeepsBlocksBefore(ours: HclDocument, theirs: HclDocument): void {
  const first = Math.min(...theirs.errors.map((error) => error.range.start.line));
  for (const block of theirs.body.blocks.filter((candidate) => candidate.range.end.line < first)) {
    assert.ok(
      ours.body.blocks.some((other) => sameHeader(other, block)),
      `block ${block.type} ${block.labels.join(' ')} kept`,
    );
  }
}

function sameHeader(a: HclBlock, b: HclBlock): boolean {
  return a.type === b.type && a.labels.join('\0') === b.labels.join('\0') && a.range.start.line === b.range.start.line;
}

const BROKEN_FILES = FILES.filter((file) => /broken/.test(path.relative(REPOSITORY, file)));

describe('syntax errors', () => {
  test('there are broken files', () => assert.ok(BROKEN_FILES.length >= 3, BROKEN_FILES.join(', ')));

  for (const file of BROKEN_FILES) {
    test(path.relative(REPOSITORY, file), () => {
      const text = readFileSync(file, 'utf8');
      for (const [label, options] of OPTIONS) {
        const theirs = parseHclDocument(parser, text, options);
        const ours = parseHcl(text, options);
        if (theirs.errors.length === 0) {
          assert.deepStrictEqual(ours, theirs, `${label}: no error from tree-sitter, none from us`);
          continue;
        }
        assert.ok(
          sharedLines(ours.errors, theirs.errors).length > 0,
          `${label}: ${JSON.stringify([ours.errors, theirs.errors])}`,
        );
        assertKeepsBlocksBefore(ours, theirs);
      }
    });
  }

  test('an error in a body keepBody skips is still reported (broken-hcl/app/api/broken.tf)', () => {
    const text = readFileSync(path.join(REPOSITORY, 'test/fixtures/broken-hcl/app/api/broken.tf'), 'utf8');
    const { body, errors } = parseHcl(text, { keepBody });
    assert.deepEqual(
      errors.map((error) => [error.range.start.line, error.message]),
      [[4, 'syntax error: unexpected "="']],
    );
    assert.deepEqual(
      body.blocks.map((block) => [block.type, block.labels, block.body]),
      [['resource', ['terraform_data', 'cache'], undefined]],
    );
  });

  /** Name, text, the line of our first error, the blocks (type and labels) we keep. */
  const CASES: [string, string, number, string[]][] = [
    ['a missing closing brace', 'data "a" "b" {\n  x = 1\n}\nlocals {\n  a = 1\n', 5, ['data a b', 'locals']],
    ['x = = 1', 'locals {\n  a = 1\n  x = = 1\n  y = 2\n}\nmodule "m" {}\n', 2, ['locals', 'module m']],
    ['an unterminated string', 'locals {\n  a = 1\n}\nb = "abc\nc = 1\n', 3, ['locals']],
    ['an unterminated heredoc', 'locals {}\na = <<EOT\nline\n', 1, ['locals']],
    ['a heredoc marker at the very end (no line break after it)', 'a = <<EOT\nline\nEOT', 0, []],
    ['a quoted string split over lines', 'locals {\n  a = "one\ntwo"\n}\n', 1, ['locals']],
    ['an attribute defined twice', 'locals {\n  a = 1\n  a = 2\n}\n', 2, ['locals']],
    ['a missing value', 'locals {\n  a = 1\n  b =\n}\n', 2, ['locals']],
    ['garbage', 'x {}\nlocals {\n  a = 1\n  @@@ !\n}\n', 3, ['x', 'locals']],
    ['an unclosed tuple', 'x {}\na = [1, 2\nb = 3\n', 2, ['x']],
    ['an unclosed call', 'x {}\na = f(1\nb = 2\n', 2, ['x']],
    ['an invalid escape', 'x {}\na = "\\q"\n', 1, ['x']],
    ['an unclosed interpolation', 'x {}\na = "${x"\nb = 1\n', 1, ['x']],
    ['an unknown directive', 'x {}\na = "%{ iff x }"\n', 1, ['x']],
    ['an unclosed directive', 'x {}\na = "%{ if x }"\n', 1, ['x']],
    ['a stray closing brace', 'block "a" {\n  x = 1\n}}\nc = 2\n', 2, ['block a']],
    ['a block header without its brace', 'x {}\nresource "x" "y"\n  a = 1\n}\n', 2, ['x']],
    ['an unterminated comment', 'x {}\na = /* open\n', 1, ['x']],
    ['a no-break space (only ASCII whitespace separates tokens)', 'x {}\na =\u00a01\n', 1, ['x']],
  ];
  for (const [name, text, line, blocks] of CASES) {
    test(name, () => {
      for (const [label, options] of OPTIONS) {
        const theirs = parseHclDocument(parser, text, options);
        const ours = parseHcl(text, options);
        assert.ok(theirs.errors.length > 0, 'tree-sitter reports it');
        assert.equal(ours.errors[0]?.range.start.line, line, `${label}: ${JSON.stringify(ours.errors)}`);
        assert.ok(sharedLines(ours.errors, theirs.errors).length > 0, `${label}: ${JSON.stringify(theirs.errors)}`);
        for (const error of ours.errors) assert.match(error.message, /^(syntax error: |attribute ")/);
        assert.deepEqual(
          ours.errors,
          [...ours.errors].sort((a, b) => a.range.start.line - b.range.start.line),
        );
        assert.deepEqual(
          ours.body.blocks.map((block) => [block.type, ...block.labels].join(' ')),
          blocks,
        );
        assertKeepsBlocksBefore(ours, theirs);
      }
    });
  }

  test('a broken attribute stays, as unsupported with the error', () => {
    const [locals] = parseHcl('locals {\n  a = 1\n  x = = 1\n  y = 2\n}\n').body.blocks;
    assert.deepEqual(
      locals?.body?.attributes.map((attribute) => [attribute.name, attribute.expr.kind]),
      [
        ['a', 'literal'],
        ['x', 'unsupported'],
        ['y', 'literal'],
      ],
    );
    const broken = locals?.body?.attributes[1]?.expr;
    assert.deepEqual(broken?.kind === 'unsupported' && broken.text, 'syntax error: unexpected "="');
  });

  test('deliberately unlike tree-sitter: a heredoc marker with a non-ASCII letter ends its heredoc', () => {
    // The grammar's scanner keeps marker characters as bytes and never matches them again: it
    // reports the heredoc unterminated and swallows the rest of the file. HCL closes it.
    const text = 'x = <<ÉOF\nfoo\nÉOF\ny = 1\n';
    assert.ok(parseHclDocument(parser, text).errors.length > 0);
    const { body, errors } = parseHcl(text);
    assert.deepEqual(errors, []);
    assert.deepEqual(
      body.attributes.map((attribute) => [attribute.name, attribute.expr.kind === 'literal' && attribute.expr.value]),
      [
        ['x', 'foo\n'],
        ['y', 1],
      ],
    );
  });

  test('deliberately unlike tree-sitter: a ? b : c ? d : e groups to the right, as Terraform evaluates it', () => {
    // `terraform console` answers "x" for this; grouped to the left it would be a type error.
    const text = 'a = true ? "x" : false ? "y" : "z"\n';
    const expr = parseHcl(text).body.attributes[0]!.expr;
    assert.equal(expr.kind === 'conditional' && expr.else.kind, 'conditional');
    assert.equal(evaluate(expr, new Map()), 'x');
    const grammar = parseHclDocument(parser, text).body.attributes[0]!.expr;
    assert.equal(grammar.kind === 'conditional' && grammar.condition.kind, 'conditional');
  });

  test('absurdly deep nesting is an error, not a crash, and what came before is kept', () => {
    const text = `locals {\n  a = 1\n}\nx = ${'['.repeat(50_000)}${']'.repeat(50_000)}\n`;
    const { body, errors } = parseHcl(text);
    assert.deepEqual(
      errors.map((error) => error.message),
      ['syntax error: nesting too deep'],
    );
    assert.deepEqual(
      body.blocks.map((block) => block.type),
      ['locals'],
    );
  });
});

// ---- inputs -------------------------------------------------------------------------------------

type Random = () => number;

function pick<T>(random: Random, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!;
}

function times(random: Random, max: number, make: () => string): string[] {
  return Array.from({ length: Math.floor(random() * (max + 1)) }, make);
}

const SPACES = ['', ' ', ' ', '\n  ', ' /* c */ ', ' # c\n', ' // c\n', '\r\n', '\t'];
const NAMES = ['a', 'local', 'x_y', 'é', 'a-b', 'for_each', 'each', 'provider::aws::f', 'in', 'if'];
const STEPS = ['.a', '[0]', '["k"]', '.0', '.1', '[*]', '.*', ' .c', '.0.1'];
const OPERATORS = ['+', '-', '*', '/', '%', '==', '!=', '<', '<=', '>', '>=', '&&', '||'];
const TEXT = ['a', ' ', 'é😀', '\\n', '\\"', '\\u00e9', '$${x}', '%%{y}', '$', '%', '$$', '#', 'EOT', '}'];

function generatedBody(random: Random, depth: number): string {
  return times(random, 3, () => {
    const space = pick(random, SPACES);
    if (depth > 1 || random() < 0.65) return `${space}${pick(random, ['x', 'key', 'é'])} = ${expression(random, 0)}\n`;
    const header = pick(random, [
      'resource "t" "n"',
      'data "terraform_remote_state" "s"',
      'locals',
      'module m',
      'b "q" c',
    ]);
    return `${space}${header} {\n${generatedBody(random, depth + 1)}}\n`;
  }).join('');
}

function expression(random: Random, depth: number): string {
  const operations = depth > 1 ? [] : times(random, 2, () => ` ${pick(random, OPERATORS)} ${term(random, depth + 1)}`);
  const base = term(random, depth) + operations.join('');
  return depth < 2 && random() < 0.15
    ? `${base} ? ${expression(random, depth + 1)} : ${term(random, depth + 1)}`
    : base;
}

function term(random: Random, depth: number): string {
  const steps = depth > 2 ? [] : times(random, 2, () => pick(random, STEPS));
  return primary(random, depth) + steps.join('');
}

function primary(random: Random, depth: number): string {
  const inner = (): string => expression(random, depth + 1);
  const r = depth > 2 ? random() * 0.3 : random();
  if (r < 0.1) return pick(random, ['1', '12.5', '1.0e-3', '0xff', 'true', 'null']);
  if (r < 0.3) return pick(random, NAMES);
  if (r < 0.45) return `"${template(random, depth, inner)}"`;
  if (r < 0.5) return `<<${pick(random, ['', '-'])}EOT\n  ${template(random, depth, inner)}\n  EOT\n`;
  if (r < 0.6) return `[${times(random, 3, inner).join(', ')}]`;
  if (r < 0.7)
    return `{${times(random, 3, () => `${pick(random, ['a', '"k"', '(a)', '"${a}"'])} ${pick(random, ['=', ':'])} ${inner()}`).join('\n')}}`;
  if (r < 0.77)
    return `${pick(random, ['f', 'provider::p::g'])}(${times(random, 2, inner).join(', ')}${pick(random, ['', '...', ','])})`;
  if (r < 0.83) return `(${pick(random, SPACES)}${inner()})`;
  if (r < 0.89)
    return `[for ${pick(random, ['v', 'k, v'])} in ${inner()} : ${inner()}${random() < 0.4 ? ` if ${inner()}` : ''}]`;
  if (r < 0.95) return `{for k, v in ${inner()} : ${inner()} => ${inner()}${pick(random, ['', '...'])}}`;
  return `${pick(random, ['-', '!'])}${term(random, depth + 1)}`;
}

function template(random: Random, depth: number, inner: () => string): string {
  return times(random, 3, () => {
    const r = random();
    if (r < 0.5 || depth > 2) return pick(random, TEXT);
    if (r < 0.75) return `\${${pick(random, ['', '~'])} ${inner()} ${pick(random, ['', '~'])}}`;
    if (r < 0.9) return `%{ if ${inner()} ~}${pick(random, TEXT)}%{~ else }x%{ endif }`;
    return `%{~ for v in ${inner()} }\${v}%{ endfor ~}`;
  }).join('');
}

const EDITS = ['{', '}', '[', ']', '(', ')', '"', '${', '%{', '~', '\n', '=', '.', '*', ',', ':', '<<EOT\n', '\nEOT\n'];
const MORE_EDITS = ['#', '//', '/*', '*/', '\\', '$$', '?', '!', '-', '...', '[*]', '.*', 'for', 'if', '\r', 'é', '=>'];

/** One or two random edits: a deletion, an insertion of a token-ish string, or a duplicated span. */
function edit(random: Random, text: string): string {
  let result = text;
  const count = 1 + Math.floor(random() * 2);
  for (let i = 0; i < count; i++) {
    const at = Math.floor(random() * (result.length + 1));
    const r = random();
    if (r < 0.35) result = result.slice(0, at) + result.slice(at + 1 + Math.floor(random() * 3));
    else if (r < 0.85) result = result.slice(0, at) + pick(random, [...EDITS, ...MORE_EDITS]) + result.slice(at);
    else result = result.slice(0, at) + result.slice(at, at + Math.floor(random() * 20)) + result.slice(at);
  }
  return result;
}
