// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the strings are HCL sources, whose interpolations look like JS ones
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { Parser } from 'web-tree-sitter';
import {
  type EvalScope,
  evaluate,
  evaluateNamed,
  expressionReferences,
  isUnknown,
  referencedNames,
  type Unknown,
  unknown,
  type Value,
} from '../../server/src/engine/evaluation';
import type { Expr } from '../../server/src/engine/hcl';
import { parseHclDocument, parseHclExpression } from '../treeSitter/hclDocument';
import { hclParser } from '../treeSitter/hclParser';

let parser: Parser;
before(async () => {
  parser = await hclParser();
});

const scope: EvalScope = new Map<string, Value>([
  [
    'local',
    {
      env: 'prod',
      region: 'eu-central-1',
      n: 3,
      half: 1.5,
      flag: true,
      list: ['a', 'b', 'c'],
      map: { b: 2, a: 1 },
      nested: { vpc: { id: 'vpc-1', subnets: ['s1', 's2'] } },
      objects: [
        { name: 'x', port: 80 },
        { name: 'y', port: 443 },
      ],
      nothing: null,
      empty: '',
    },
  ],
  ['var', { name: 'app', missing: unknown('var.missing has no default') }],
  ['path', { module: '.', root: '.', cwd: '/repo/stacks/app' }],
  ['terraform', { workspace: 'default' }],
]);

function parse(source: string): Expr {
  return parseHclExpression(parser, source);
}

function run(source: string, within: EvalScope = scope): Value {
  return evaluate(parse(source), within);
}

function reasonsOf(value: Value): readonly string[] {
  assert.ok(isUnknown(value), `expected an unknown, got ${JSON.stringify(value)}`);
  return (value as Unknown).reasons;
}

describe('literals and templates', () => {
  const cases: [string, Value][] = [
    ['1', 1],
    ['1.5', 1.5],
    ['1.5e3', 1500],
    ['true', true],
    ['false', false],
    ['null', null],
    ['"abc"', 'abc'],
    ['""', ''],
    ['"a\\nb"', 'a\nb'],
    ['"tab\\there"', 'tab\there'],
    ['"quote \\" and backslash \\\\"', 'quote " and backslash \\'],
    ['"\\u00e9\\U0001F600"', 'é😀'],
    ['"$${not.interpolated} %%{not.directive}"', '${not.interpolated} %{not.directive}'],
    ['"${local.env}/vpc/terraform.tfstate"', 'prod/vpc/terraform.tfstate'],
    ['"${local.n}"', 3],
    ['"n=${local.n}"', 'n=3'],
    ['"h=${local.half}"', 'h=1.5'],
    ['"f=${local.flag}"', 'f=true'],
    ['"${local.env}-${local.region}"', 'prod-eu-central-1'],
    ['"a ${"nested ${local.env}"} b"', 'a nested prod b'],
    ['"%{ if local.flag }yes%{ else }no%{ endif }"', 'yes'],
    ['"%{ if !local.flag }yes%{ else }no%{ endif }"', 'no'],
    ['"%{ for x in local.list }[${x}]%{ endfor }"', '[a][b][c]'],
    ['"%{ for k, v in local.map }${k}=${v};%{ endfor }"', 'a=1;b=2;'],
    ['"a  ${~ local.env ~}  b"', 'aprodb'],
    ['"%{ for x in local.list ~} ${x} %{~ endfor }"', 'abc'],
    ['<<EOT\nhello ${local.env}\n  indented\nEOT', 'hello prod\n  indented\n'],
    ['<<-EOT\n    hello\n      more\n    ${local.env}\n    EOT', 'hello\n  more\nprod\n'],
    ['<<-EOT\n    a\n\n    b\n  EOT', 'a\n\nb\n'],
    ['<<EOT\nback\\slash $${x}\nEOT', 'back\\slash ${x}\n'],
    ['<<EOT\nEOT', ''],
  ];
  for (const [source, expected] of cases) {
    test(source.replace(/\n/g, '⏎'), () => assert.deepEqual(run(source), expected));
  }
});

describe('references', () => {
  const cases: [string, Value][] = [
    ['local.env', 'prod'],
    ['local.map.a', 1],
    ['local.map["b"]', 2],
    ['local.list[1]', 'b'],
    ['local.list.0', 'a'],
    ['local.list["2"]', 'c'],
    ['local.nested.vpc.subnets[1]', 's2'],
    ['local.objects[*].name', ['x', 'y']],
    ['local.objects.*.port', [80, 443]],
    ['local.nothing[*]', []],
    ['local.nested.vpc[*].id', ['vpc-1']],
    ['var.name', 'app'],
    ['path.module', '.'],
    ['terraform.workspace', 'default'],
    ['local.map[local.list[0]]', 1],
    ['[for o in local.objects : o.name][1]', 'y'],
    ['{ a = { b = 5 } }.a.b', 5],
  ];
  for (const [source, expected] of cases) {
    test(source, () => assert.deepEqual(run(source), expected));
  }
});

describe('operators and conditionals', () => {
  const cases: [string, Value][] = [
    ['1 + 2 * 3', 7],
    ['(1 + 2) * 3', 9],
    ['10 / 4', 2.5],
    ['10 % 3', 1],
    ['-local.n', -3],
    ['1 + "2"', 3],
    ['"3" * "2"', 6],
    ['1 == 1', true],
    ['1 == "1"', false],
    ['"a" != "b"', true],
    ['[1, "a"] == [1, "a"]', true],
    ['{ a = 1 } == { a = 1 }', true],
    ['null == null', true],
    ['local.n > 2', true],
    ['local.n <= 2', false],
    ['"10" > 9', true],
    ['true && !false', true],
    ['false || "true"', true],
    ['1 < 2 && 2 < 3 || false', true],
    ['local.n > 2 ? "big" : "small"', 'big'],
    ['local.env == "prod" ? 1 : 0', 1],
    ['"true" ? "y" : "n"', 'y'],
    ['local.flag ? local.env : local.missing_is_not_evaluated', 'prod'],
  ];
  for (const [source, expected] of cases) {
    test(source, () => assert.deepEqual(run(source), expected));
  }
});

describe('collections and for-expressions', () => {
  const cases: [string, Value][] = [
    ['[]', []],
    ['[1, "a", true, null]', [1, 'a', true, null]],
    ['{ a = 1, "b" = 2, c: 3 }', { a: 1, b: 2, c: 3 }],
    ['{ (local.env) = 1 }', { prod: 1 }],
    ['{ "${local.env}-x" = 1 }', { 'prod-x': 1 }],
    ['{ env = local.env }', { env: 'prod' }],
    ['[for s in local.list : upper(s)]', ['A', 'B', 'C']],
    ['[for i, s in local.list : "${i}:${s}"]', ['0:a', '1:b', '2:c']],
    ['[for s in local.list : s if s != "b"]', ['a', 'c']],
    ['{ for s in local.list : s => upper(s) }', { a: 'A', b: 'B', c: 'C' }],
    ['{ for k, v in local.map : v => k }', { '1': 'a', '2': 'b' }],
    ['{ for o in local.objects : o.name => o.port }', { x: 80, y: 443 }],
    ['{ for s in ["a", "b", "a"] : s => s... }', { a: ['a', 'a'], b: ['b'] }],
    ['[for k, v in { b = 1, a = 2 } : k]', ['a', 'b']],
    ['[for x in [1, 2, 3] : x * 2 if x > 1]', [4, 6]],
  ];
  for (const [source, expected] of cases) {
    test(source, () => assert.deepEqual(run(source), expected));
  }
});

describe('unknowns and their reasons', () => {
  const cases: [string, string[]][] = [
    ['data.aws_caller_identity.current.account_id', ['data.aws_caller_identity.current is only known after apply']],
    ['module.vpc.vpc_id', ['module.vpc.vpc_id is only known after apply']],
    ['aws_s3_bucket.state.id', ['aws_s3_bucket.state is only known after apply']],
    ['each.key', ['each.key is only known in a block with for_each']],
    ['count.index', ['count.index is only known in a block with count']],
    ['var.missing', ['var.missing has no default']],
    ['local.undefined_thing', ['local.undefined_thing is not defined']],
    ['var.undeclared', ['var.undeclared is not defined']],
    ['"${var.missing}/terraform.tfstate"', ['var.missing has no default']],
    [
      '"${var.missing}-${data.aws_region.current.name}"',
      ['var.missing has no default', 'data.aws_region.current is only known after apply'],
    ],
    ['var.missing ? "a" : "b"', ['var.missing has no default']],
    ['var.missing == "x"', ['var.missing has no default']],
    ['upper(var.missing)', ['var.missing has no default']],
    ['[for x in var.missing : x]', ['var.missing has no default']],
    ['local.map.zzz', ['local.map has no attribute "zzz"']],
    ['local.map["zzz"]', ['local.map has no key "zzz"']],
    ['local.list[7]', ['index 7 is out of range for local.list (length 3)']],
    ['local.env.x', ['local.env is a string; cannot read attribute "x"']],
    ['local.nothing.x', ['local.nothing is null; cannot read attribute "x"']],
    ['"a" + 1', ['the left operand of + is "a"; a number is required']],
    ['"x ${local.list}"', ['local.list in the template is a list; a string is required']],
    ['"x ${local.nothing}"', ['local.nothing in the template is null; a string is required']],
    ['1 / 0', ['division by zero']],
    ['{ for s in ["a", "a"] : s => s }', ['duplicate key "a" in the for expression; add ... to group']],
    ['file("x.txt")', ['file() is not evaluated statically']],
    ['nosuchfunction(1)', ['function nosuchfunction() is not supported']],
  ];
  for (const [source, reasons] of cases) {
    test(source, () => assert.deepEqual(reasonsOf(run(source)), reasons));
  }

  test('a root missing from the scope is unknown, not an error', () => {
    const value = run('local.x', new Map());
    assert.deepEqual(value, { unknown: true, reasons: ['local.x is not defined'] });
  });

  test('errors are marked, unknowns are not', () => {
    assert.equal((run('local.map.zzz') as Unknown).error, true);
    assert.equal((run('var.missing') as Unknown).error, undefined);
  });

  test('an unknown element stays inside a known collection', () => {
    assert.deepEqual(run('[var.name, var.missing]'), ['app', unknown('var.missing has no default')]);
    assert.deepEqual(run('{ a = var.missing }'), { a: unknown('var.missing has no default') });
    assert.deepEqual(run('length([var.missing, 1])'), 2);
  });

  test('an error anywhere inside a collection fails the whole', () => {
    assert.deepEqual(reasonsOf(run('[1, local.map.zzz]')), ['local.map has no attribute "zzz"']);
  });

  test('&& and || decide with one known side, like HCL', () => {
    assert.equal(run('false && var.missing'), false);
    assert.equal(run('var.missing || true'), true);
    assert.deepEqual(reasonsOf(run('true && var.missing')), ['var.missing has no default']);
  });

  test('unsupported syntax is unknown with the text', () => {
    const value = evaluate({ kind: 'unsupported', text: 'x ->', range: parse('1').range }, scope);
    assert.deepEqual(reasonsOf(value), ['unsupported expression: x ->']);
  });

  test('evaluate never throws, even on nonsense', () => {
    for (const source of ['local.list[-1]', 'local.list[1.5]', '!"x"', '-"x"', 'local.map[null]', '[for x in 1 : x]']) {
      assert.ok(isUnknown(run(source)), source);
    }
  });
});

describe('try and can', () => {
  test('try returns the first argument without an error', () => {
    assert.equal(run('try(local.map.zzz, local.list[9], "fallback")'), 'fallback');
    assert.equal(run('try(local.map.a, "fallback")'), 1);
  });
  test('try with an unknown first argument is undecided, as in Terraform', () => {
    assert.deepEqual(reasonsOf(run('try(var.missing, "fallback")')), ['var.missing has no default']);
  });
  test('try with only errors is an error listing them', () => {
    const value = run('try(local.map.zzz)') as Unknown;
    assert.equal(value.error, true);
    assert.match(value.reasons[0], /local\.map has no attribute "zzz"/);
  });
  test('can', () => {
    assert.equal(run('can(local.map.zzz)'), false);
    assert.equal(run('can(local.map.a)'), true);
    assert.equal(run('can(regex("^[a-z]+$", local.env))'), true);
    assert.equal(run('can(regex("^[0-9]+$", local.env))'), false);
    assert.deepEqual(reasonsOf(run('can(var.missing)')), ['var.missing has no default']);
  });
});

describe('expression references', () => {
  test('roots and leading names, in source order', () => {
    const refs = expressionReferences(
      parse('"${local.a.b}-${var.x["k"]}" == data.terraform_remote_state.vpc.outputs.id'),
    );
    assert.deepEqual(
      refs.map((ref) => [ref.root, ref.names]),
      [
        ['local', ['a', 'b']],
        ['var', ['x']],
        ['data', ['terraform_remote_state', 'vpc', 'outputs', 'id']],
      ],
    );
  });
  test('for-expression variables are not references', () => {
    const refs = expressionReferences(parse('[for k, v in local.m : "${k}-${v.x}-${local.y}" if v != var.z]'));
    assert.deepEqual(
      refs.map((ref) => `${ref.root}.${ref.names.join('.')}`),
      ['local.m', 'local.y', 'var.z'],
    );
  });
  test('template for directives bind their variables', () => {
    assert.deepEqual(
      [...referencedNames(parse('"%{ for x in local.xs }${x}${local.sep}%{ endfor }"'), 'local')],
      ['xs', 'sep'],
    );
  });
  test('references inside calls, indexes and splats', () => {
    const names = referencedNames(parse('merge(local.a, { k = local.b[local.c] })[local.d][*].e'), 'local');
    assert.deepEqual([...names].sort(), ['a', 'b', 'c', 'd']);
  });
  test('ranges point at the reference', () => {
    const [ref] = expressionReferences(parse('"x-${local.env}"'));
    assert.deepEqual(
      { start: ref.range.start, end: ref.range.end },
      { start: { line: 0, character: 5 }, end: { line: 0, character: 14 } },
    );
  });
});

describe('locals in dependency order', () => {
  function locals(text: string): Map<string, Expr> {
    const document = parseHclDocument(parser, text);
    const exprs = new Map<string, Expr>();
    for (const block of document.body.blocks) {
      for (const attribute of block.body?.attributes ?? []) exprs.set(attribute.name, attribute.expr);
    }
    return exprs;
  }

  test('locals that use locals defined later', () => {
    const exprs = locals(`locals {
  key    = "\${local.prefix}/\${local.name}/terraform.tfstate"
  prefix = "\${var.service}/\${local.env}"
  env    = terraform.workspace == "default" ? "prod" : terraform.workspace
  name   = "vpc"
}`);
    const base = new Map<string, Value>([
      ['var', { service: 'platform' }],
      ['terraform', { workspace: 'default' }],
    ]);
    const { values, cycles } = evaluateNamed(exprs, 'local', base);
    assert.deepEqual(cycles, []);
    assert.equal(values.get('key'), 'platform/prod/vpc/terraform.tfstate');
    assert.equal(values.get('prefix'), 'platform/prod');
    assert.equal(values.size, 4);
  });

  test('locals spread over two blocks (two files of one module)', () => {
    const exprs = locals('locals {\n  a = local.b\n}\nlocals {\n  b = "x"\n}\n');
    assert.deepEqual(
      evaluateNamed(exprs, 'local', new Map()).values,
      new Map([
        ['b', 'x'],
        ['a', 'x'],
      ]),
    );
  });

  test('a cycle is reported and its members are unknown with the path', () => {
    const exprs = locals(`locals {
  a = "\${local.b}-a"
  b = "\${local.c}-b"
  c = local.a
  d = upper(local.a)
  e = "fine"
  s = local.s
}`);
    const { values, cycles } = evaluateNamed(exprs, 'local', new Map());
    assert.deepEqual(cycles, [
      ['a', 'b', 'c', 'a'],
      ['s', 's'],
    ]);
    const reason = 'local.a -> local.b -> local.c -> local.a is a cycle';
    for (const name of ['a', 'b', 'c', 'd']) assert.deepEqual(reasonsOf(values.get(name) as Value), [reason], name);
    assert.deepEqual(reasonsOf(values.get('s') as Value), ['local.s -> local.s is a cycle']);
    assert.equal(values.get('e'), 'fine');
  });

  test('a reference to an undefined local is reported as such', () => {
    const exprs = locals('locals {\n  a = "${local.nope}-x"\n}\n');
    assert.deepEqual(reasonsOf(evaluateNamed(exprs, 'local', new Map()).values.get('a') as Value), [
      'local.nope is not defined',
    ]);
  });

  test('unknown variables flow into the locals that use them', () => {
    const exprs = locals('locals {\n  key = "${var.stack}/terraform.tfstate"\n}\n');
    const base = new Map<string, Value>([['var', { stack: unknown('var.stack has no default') }]]);
    assert.deepEqual(reasonsOf(evaluateNamed(exprs, 'local', base).values.get('key') as Value), [
      'var.stack has no default',
    ]);
  });
});

describe('values that look like unknowns', () => {
  test('an HCL object with an unknown attribute is a plain value', () => {
    assert.deepEqual(run('{ unknown = true }'), { unknown: true });
    assert.deepEqual(run('merge({ unknown = true }, { b = 1 })'), { unknown: true, b: 1 });
    assert.deepEqual(run('jsondecode("{\\"unknown\\": true}").unknown'), true);
  });
});
