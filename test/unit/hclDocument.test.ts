// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the strings are HCL sources, whose interpolations look like JS ones
// biome-ignore-all lint/suspicious/noThenProperty: the Expr contract names a conditional branch `then`
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import type { Parser } from 'web-tree-sitter';
import { type Expr, type HclBlock, type Range, TextRange } from '../../server/src/engine/hcl';
import { parseHclDocument, parseHclExpression } from '../treeSitter/hclDocument';
import { hclParser } from '../treeSitter/hclParser';

let parser: Parser;
before(async () => {
  parser = await hclParser();
});

/** A node's range as the parsers make it (syntax errors' ranges are plain: `plain`). */
function range(startLine: number, startChar: number, endLine: number, endChar: number): Range {
  return new TextRange(startLine, startChar, endLine, endChar);
}

function plain(startLine: number, startChar: number, endLine: number, endChar: number): Range {
  return { start: { line: startLine, character: startChar }, end: { line: endLine, character: endChar } };
}

/** The Expr without ranges, for comparing shapes. */
function shape(expr: Expr): unknown {
  return JSON.parse(JSON.stringify(expr, (key, value) => (key === 'range' ? undefined : value)));
}

const REMOTE_STATE = `# Reads the network's state.
data "terraform_remote_state" "vpc" {
  backend = "s3"
  config = {
    bucket = "acme-state"
    key    = "\${local.env}/vpc/terraform.tfstate"
  }
}

data "terraform_remote_state" "legacy" {
  backend = "s3"

  config {
    key = "legacy/terraform.tfstate"
  }
}
`;

describe('blocks and attributes', () => {
  test('types, unquoted labels and exact ranges', () => {
    const { body, errors } = parseHclDocument(parser, REMOTE_STATE);
    assert.deepEqual(errors, []);
    assert.equal(body.attributes.length, 0);
    const [vpc, legacy] = body.blocks;
    assert.equal(vpc.type, 'data');
    assert.deepEqual(vpc.labels, ['terraform_remote_state', 'vpc']);
    assert.deepEqual(vpc.range, range(1, 0, 7, 1));
    assert.deepEqual(vpc.headerRange, range(1, 0, 1, 35));
    assert.deepEqual(vpc.labelRanges, [range(1, 5, 1, 29), range(1, 30, 1, 35)]);
    assert.deepEqual(legacy.labels, ['terraform_remote_state', 'legacy']);
    assert.deepEqual(legacy.range, range(9, 0, 15, 1));
  });

  test('attributes with their names, ranges and expressions', () => {
    const [vpc] = parseHclDocument(parser, REMOTE_STATE).body.blocks;
    const [backend, config] = vpc.body?.attributes ?? [];
    assert.equal(backend.name, 'backend');
    assert.deepEqual(backend.nameRange, range(2, 2, 2, 9));
    assert.deepEqual(backend.range, range(2, 2, 2, 16));
    assert.deepEqual(backend.expr, { kind: 'literal', value: 's3', range: range(2, 12, 2, 16) });
    assert.equal(config.name, 'config');
    assert.deepEqual(config.range, range(3, 2, 6, 3));
    assert.equal(config.expr.kind, 'object');
  });

  test('nested blocks (the old config {} form)', () => {
    const legacy = parseHclDocument(parser, REMOTE_STATE).body.blocks[1];
    const [config] = legacy.body?.blocks ?? [];
    assert.equal(config.type, 'config');
    assert.deepEqual(config.labels, []);
    assert.deepEqual(config.range, range(12, 2, 14, 3));
    assert.deepEqual(config.headerRange, range(12, 2, 12, 8));
    assert.deepEqual(
      config.body?.attributes.map((a) => a.name),
      ['key'],
    );
  });

  test('terraform { backend "s3" {} } nesting, top-level attributes, identifier labels', () => {
    const text = 'terraform {\n  backend "s3" {}\n}\nname = "x"\nmodule vpc {\n  source = "../vpc"\n}\n';
    const { body } = parseHclDocument(parser, text);
    assert.deepEqual(
      body.attributes.map((a) => a.name),
      ['name'],
    );
    const [terraform, module] = body.blocks;
    const backend = terraform.body?.blocks[0] as HclBlock;
    assert.deepEqual([backend.type, backend.labels, backend.body], ['backend', ['s3'], { attributes: [], blocks: [] }]);
    assert.deepEqual(module.labels, ['vpc']);
  });

  test('label escapes are decoded', () => {
    const [block] = parseHclDocument(parser, 'x "a\\"b" {}\n').body.blocks;
    assert.deepEqual(block.labels, ['a"b']);
  });

  test('an empty file and a file of comments', () => {
    assert.deepEqual(parseHclDocument(parser, ''), { body: { attributes: [], blocks: [] }, errors: [] });
    assert.deepEqual(parseHclDocument(parser, '# a\n// b\n/* c\n d */\n'), {
      body: { attributes: [], blocks: [] },
      errors: [],
    });
  });
});

describe('comments', () => {
  test('a commented-out block is not a block', () => {
    const text = `#data "terraform_remote_state" "old" {
#  backend = "s3"
#}
// data "terraform_remote_state" "older" {}
/*
data "terraform_remote_state" "oldest" {}
*/
data "terraform_remote_state" "live" { # trailing
  backend = "s3" // trailing
}
`;
    const { body, errors } = parseHclDocument(parser, text);
    assert.deepEqual(errors, []);
    assert.deepEqual(
      body.blocks.map((b) => b.labels[1]),
      ['live'],
    );
    assert.deepEqual(
      body.blocks[0].body?.attributes.map((a) => a.name),
      ['backend'],
    );
  });

  test('comments inside expressions are skipped', () => {
    const { body } = parseHclDocument(parser, 'x = [\n  "a", # first\n  /* second */ "b",\n]\n');
    assert.deepEqual(shape(body.attributes[0].expr), {
      kind: 'tuple',
      items: [
        { kind: 'literal', value: 'a' },
        { kind: 'literal', value: 'b' },
      ],
    });
  });

  test('# and // inside strings and heredocs are text', () => {
    const { body } = parseHclDocument(parser, 'a = "x # y // z"\nb = <<EOT\n# not a comment\nEOT\n');
    assert.deepEqual(
      body.attributes.map((a) => shape(a.expr)),
      [
        { kind: 'literal', value: 'x # y // z' },
        { kind: 'literal', value: '# not a comment\n' },
      ],
    );
  });
});

describe('keepBody', () => {
  const text = `resource "aws_instance" "web" {
  ami = "x"
  nested {
    a = 1
  }
}
data "terraform_remote_state" "vpc" {
  config {
    key = "k"
  }
}
locals {
  a = 1
}
`;

  test('a rejected block keeps its header but has no body', () => {
    const keepBody = (type: string, labels: string[]): boolean => type !== 'resource' && labels[0] !== 'aws_instance';
    const { body } = parseHclDocument(parser, text, { keepBody });
    const [resource, data, locals] = body.blocks;
    assert.equal(resource.body, undefined);
    assert.deepEqual(resource.labels, ['aws_instance', 'web']);
    assert.deepEqual(resource.range, range(0, 0, 5, 1));
    assert.equal(data.body?.blocks[0].body?.attributes[0].name, 'key');
    assert.equal(locals.body?.attributes[0].name, 'a');
  });

  test('is asked with the depth of each block it reaches', () => {
    const asked: string[] = [];
    parseHclDocument(parser, text, {
      keepBody: (type, labels, depth) => {
        asked.push(`${depth}:${[type, ...labels].join(' ')}`);
        return type !== 'resource';
      },
    });
    assert.deepEqual(asked, [
      '0:resource aws_instance web',
      '0:data terraform_remote_state vpc',
      '1:config',
      '0:locals',
    ]);
  });
});

describe('syntax errors', () => {
  const cases: [string, string, number][] = [
    ['an unterminated string', 'a = "abc\nb = 1\n', 0],
    ['a missing closing brace', 'locals {\n  a = 1\n', 2],
    ['a missing value', 'locals {\n  a = 1\n  b =\n}\n', 2],
    ['garbage', 'locals {\n  a = 1\n  @@@ !\n}\n', 2],
    ['an unterminated heredoc', 'a = <<EOT\nline\n', 0],
  ];
  for (const [name, text, line] of cases) {
    test(name, () => {
      const { errors } = parseHclDocument(parser, text);
      assert.ok(errors.length > 0, 'an error is reported');
      assert.ok(
        errors.some((error) => error.range.start.line <= line && error.range.end.line >= line),
        `an error covers line ${line}: ${JSON.stringify(errors)}`,
      );
      for (const error of errors) assert.match(error.message, /^syntax error: /);
      assert.deepEqual(
        errors,
        [...errors].sort((a, b) => a.range.start.line - b.range.start.line),
      );
    });
  }

  test('a quoted string split over lines (tree-sitter accepts it, HCL does not)', () => {
    const { errors } = parseHclDocument(parser, 'locals {\n  a = "one\ntwo"\n  b = "x${y}\nz"\n}\n');
    assert.deepEqual(
      errors.map((error) => [error.range, error.message]),
      [
        [plain(1, 6, 2, 4), 'syntax error: quoted strings may not be split over multiple lines; use \\n or a heredoc'],
        [plain(3, 6, 4, 2), 'syntax error: quoted strings may not be split over multiple lines; use \\n or a heredoc'],
      ],
    );
  });

  test('an attribute defined twice in one body', () => {
    const { body, errors } = parseHclDocument(parser, 'locals {\n  a = 1\n  a = 2\n}\n');
    assert.deepEqual(errors, [{ range: plain(2, 2, 2, 3), message: 'attribute "a" is already defined on line 2' }]);
    assert.equal(body.blocks[0].body?.attributes.length, 2);
  });

  test('the valid part of a broken file is still read', () => {
    const { body, errors } = parseHclDocument(parser, 'data "a" "b" {\n  x = 1\n}\nlocals {\n  y = \n');
    assert.ok(errors.length > 0);
    assert.deepEqual(body.blocks[0].labels, ['a', 'b']);
  });
});

describe('positions', () => {
  test('non-ASCII text: characters are UTF-16 code units', () => {
    const text = 'a = "é😀${local.x}"\nb = "ü"\n';
    const { body } = parseHclDocument(parser, text);
    const template = body.attributes[0].expr;
    assert.equal(template.kind, 'template');
    if (template.kind !== 'template') return;
    assert.deepEqual(template.parts[0], 'é😀');
    assert.deepEqual((template.parts[1] as Expr).range, range(0, 10, 0, 17));
    assert.deepEqual(body.attributes[0].range, range(0, 0, 0, 19));
    assert.deepEqual(body.attributes[1].range, range(1, 0, 1, 7));
  });

  test('CRLF line endings', () => {
    const { body } = parseHclDocument(parser, 'locals {\r\n  a = "x"\r\n  b = 2\r\n}\r\n');
    const [a, b] = body.blocks[0].body?.attributes ?? [];
    assert.deepEqual(a.range, range(1, 2, 1, 9));
    assert.deepEqual(b.range, range(2, 2, 2, 7));
    assert.deepEqual(body.blocks[0].range, range(0, 0, 3, 1));
  });

  test('a multi-line heredoc range', () => {
    const { body } = parseHclDocument(parser, 'x {\n  a = <<-EOT\n    one\n    two\n  EOT\n}\n');
    const [a] = body.blocks[0].body?.attributes ?? [];
    assert.deepEqual(a.range, range(1, 2, 4, 5));
    assert.deepEqual(shape(a.expr), { kind: 'literal', value: 'one\ntwo\n' });
  });

  test('parseHclExpression ranges are relative to the expression text', () => {
    assert.deepEqual(parseHclExpression(parser, 'local.a').range, range(0, 0, 0, 7));
    assert.deepEqual(parseHclExpression(parser, '[\n  1]').range, range(0, 0, 1, 4));
  });
});

describe('expressions', () => {
  const cases: [string, unknown][] = [
    [
      'local.a.b["c"][0]',
      {
        kind: 'traversal',
        root: 'local',
        steps: [
          { kind: 'attr', name: 'a' },
          { kind: 'attr', name: 'b' },
          { kind: 'index', key: { kind: 'literal', value: 'c' } },
          { kind: 'index', key: { kind: 'literal', value: 0 } },
        ],
      },
    ],
    [
      'f(x, y...)',
      {
        kind: 'call',
        name: 'f',
        args: [
          { kind: 'traversal', root: 'x', steps: [] },
          { kind: 'traversal', root: 'y', steps: [] },
        ],
        expandFinal: true,
      },
    ],
    [
      '1 + 2 * 3',
      {
        kind: 'binary',
        op: '+',
        left: { kind: 'literal', value: 1 },
        right: {
          kind: 'binary',
          op: '*',
          left: { kind: 'literal', value: 2 },
          right: { kind: 'literal', value: 3 },
        },
      },
    ],
    [
      'a || b && !c',
      {
        kind: 'binary',
        op: '||',
        left: { kind: 'traversal', root: 'a', steps: [] },
        right: {
          kind: 'binary',
          op: '&&',
          left: { kind: 'traversal', root: 'b', steps: [] },
          right: { kind: 'unary', op: '!', operand: { kind: 'traversal', root: 'c', steps: [] } },
        },
      },
    ],
    [
      'x ? 1 : 2',
      {
        kind: 'conditional',
        condition: { kind: 'traversal', root: 'x', steps: [] },
        then: { kind: 'literal', value: 1 },
        else: { kind: 'literal', value: 2 },
      },
    ],
    [
      '{ a = 1, (b) = 2, "c" = 3 }',
      {
        kind: 'object',
        items: [
          { key: { kind: 'literal', value: 'a' }, value: { kind: 'literal', value: 1 } },
          { key: { kind: 'traversal', root: 'b', steps: [] }, value: { kind: 'literal', value: 2 } },
          { key: { kind: 'literal', value: 'c' }, value: { kind: 'literal', value: 3 } },
        ],
      },
    ],
    [
      '{ for k, v in m : v => k... if k != "" }',
      {
        kind: 'for',
        result: 'object',
        keyVar: 'k',
        valueVar: 'v',
        collection: { kind: 'traversal', root: 'm', steps: [] },
        key: { kind: 'traversal', root: 'v', steps: [] },
        value: { kind: 'traversal', root: 'k', steps: [] },
        condition: {
          kind: 'binary',
          op: '!=',
          left: { kind: 'traversal', root: 'k', steps: [] },
          right: { kind: 'literal', value: '' },
        },
        group: true,
      },
    ],
    [
      'x[*].y',
      {
        kind: 'traversal',
        root: 'x',
        steps: [{ kind: 'splat' }, { kind: 'attr', name: 'y' }],
      },
    ],
    [
      'f()[*].y',
      {
        kind: 'splat',
        target: { kind: 'call', name: 'f', args: [], expandFinal: false },
        steps: [{ kind: 'attr', name: 'y' }],
      },
    ],
    ['(a).b', { kind: 'traversal', root: 'a', steps: [{ kind: 'attr', name: 'b' }] }],
    [
      'f(1).b[2]',
      {
        kind: 'index',
        target: {
          kind: 'getattr',
          target: { kind: 'call', name: 'f', args: [{ kind: 'literal', value: 1 }], expandFinal: false },
          name: 'b',
        },
        key: { kind: 'literal', value: 2 },
      },
    ],
    ['"a${b}c"', { kind: 'template', parts: ['a', { kind: 'traversal', root: 'b', steps: [] }, 'c'] }],
    [
      '"%{ if x }y%{ endif }"',
      {
        kind: 'template',
        parts: [{ kind: 'if', condition: { kind: 'traversal', root: 'x', steps: [] }, then: ['y'], else: [] }],
      },
    ],
    ['0x1F', { kind: 'literal', value: 31 }],
  ];
  for (const [source, expected] of cases) {
    test(source, () => assert.deepEqual(shape(parseHclExpression(parser, source)), expected));
  }

  test('a syntax error in a lone expression is unsupported', () => {
    assert.equal(parseHclExpression(parser, '1 +').kind, 'unsupported');
  });
});

describe('speed', () => {
  test('parse and convert a realistic 100-line file', () => {
    const text = readFileSync(path.join(__dirname, 'samples', 'realistic.tf'), 'utf8');
    const keepBody = (type: string, labels: string[], depth: number): boolean =>
      depth > 0 ||
      ['terraform', 'locals', 'variable', 'module'].includes(type) ||
      labels[0] === 'terraform_remote_state';
    const median = (run: () => void): number => {
      for (let i = 0; i < 50; i++) run();
      const times: number[] = [];
      for (let i = 0; i < 200; i++) {
        const start = performance.now();
        run();
        times.push(performance.now() - start);
      }
      return times.sort((a, b) => a - b)[100];
    };
    const all = median(() => parseHclDocument(parser, text));
    const filtered = median(() => parseHclDocument(parser, text, { keepBody }));
    const parseOnly = median(() => parser.parse(text)?.delete());
    console.log(
      `realistic.tf (${text.split('\n').length - 1} lines, ${text.length} chars): tree-sitter parse ${parseOnly.toFixed(3)} ms, ` +
        `parse+convert ${all.toFixed(3)} ms (keepBody filter: ${filtered.toFixed(3)} ms)`,
    );
    assert.ok(all > 0);
  });
});
