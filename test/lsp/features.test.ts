import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import type {
  CodeLens,
  Diagnostic,
  Hover,
  Location,
  PublishDiagnosticsParams,
} from 'vscode-languageserver-protocol/node';
import {
  type GraphModel,
  GraphRequest,
  ModuleForUriRequest,
  PanelDetailsRequest,
  type ServerStatusParams,
} from '../../server/src/protocol';
import { type LspTestClient, latestDiagnostics, repoRoot, started } from './lspClient';

/**
 * The language server's features on the fixture monorepos, over a real LSP connection: exact hover
 * Markdown, definition and reference locations, code lenses, and the diagnostics published for
 * the whole workspace — including while a document is edited and not saved.
 */
const fixture = (name: string) => path.join(repoRoot, 'test', 'fixtures', name);
const uri = (file: string) => pathToFileURL(file).href;
const pos = (line: number, character = 2) => ({ line, character });

function diagnosticsFor(
  client: LspTestClient,
  file: string,
  accept: (list: Diagnostic[]) => boolean = () => true,
  timeoutMs = 10_000,
) {
  return client
    .waitForNotification<PublishDiagnosticsParams>(
      'textDocument/publishDiagnostics',
      (p) => p.uri === uri(file) && accept(p.diagnostics),
      timeoutMs,
    )
    .then((p) => p.diagnostics);
}

describe('cycles: examples/cycle', () => {
  const root = path.join(repoRoot, 'examples', 'cycle');
  const vpc = path.join(root, 'network/vpc/main.tf');
  const firewall = path.join(root, 'security/firewall/main.tf');
  const eks = path.join(root, 'platform/eks/main.tf');
  let client: LspTestClient;
  before(async () => {
    client = await started(root);
  });
  after(() => client.dispose());

  test('every edge of the cycle gets an error with the whole path and the other edges as related locations', async () => {
    const message = 'Circular dependency: network/vpc -> security/firewall -> platform/eks -> network/vpc';
    for (const [file, other1, other2] of [
      [vpc, eks, firewall],
      [firewall, vpc, eks],
      [eks, vpc, firewall],
    ] as const) {
      const [diagnostic, ...rest] = await diagnosticsFor(client, file, (list) => list.length > 0);
      assert.deepEqual(rest, []);
      assert.equal(diagnostic!.message, message);
      assert.equal(diagnostic!.code, 'cycle');
      assert.equal(diagnostic!.source, 'terrace');
      assert.equal(diagnostic!.severity, 1);
      assert.equal(diagnostic!.range.start.line, 8, 'on the data block header');
      assert.deepEqual(
        diagnostic!.relatedInformation!.map((info) => info.location.uri).sort(),
        [uri(other1), uri(other2)].sort(),
      );
    }
    // Every related row is main.tf [Ln 9, Col 1] in the Problems view: the message says which module it is.
    const [diagnostic] = await diagnosticsFor(client, vpc, (list) => list.length > 0);
    assert.deepEqual(diagnostic!.relatedInformation!.map((info) => info.message).sort(), [
      'platform/eks: data.terraform_remote_state.vpc reads the state of network/vpc',
      'security/firewall: data.terraform_remote_state.eks reads the state of platform/eks',
    ]);
  });

  test('hover on the backend block: id, level, what it writes, dependencies, dependents, the cycle', async () => {
    const hover = (await client.connection.sendRequest('textDocument/hover', {
      textDocument: { uri: uri(vpc) },
      position: pos(1),
    })) as Hover;
    assert.deepEqual(hover.contents, {
      kind: 'markdown',
      value: [
        '**Module `network/vpc`** · in a cycle, no level',
        '',
        'Writes `s3://acme-terraform-state/network/vpc/terraform.tfstate`',
        '',
        `Depends on (1): [security/firewall](${uri(firewall)}#L2)`,
        '',
        `Used by (1): [platform/eks](${uri(eks)}#L2)`,
        '',
        'In a cycle: network/vpc -> security/firewall -> platform/eks -> network/vpc',
      ].join('\n'),
    });
  });

  test('definition from a remote_state block lands on the writer’s backend block', async () => {
    const locations = (await client.connection.sendRequest('textDocument/definition', {
      textDocument: { uri: uri(vpc) },
      position: pos(12, 6),
    })) as Location[];
    assert.deepEqual(locations, [
      { uri: uri(firewall), range: { start: { line: 1, character: 2 }, end: { line: 1, character: 14 } } },
    ]);
  });

  test('references from a backend block: every remote_state block that reads it', async () => {
    const locations = (await client.connection.sendRequest('textDocument/references', {
      textDocument: { uri: uri(vpc) },
      position: pos(2),
      context: { includeDeclaration: false },
    })) as Location[];
    assert.deepEqual(locations, [
      { uri: uri(eks), range: { start: { line: 8, character: 0 }, end: { line: 8, character: 35 } } },
    ]);
  });

  test('code lenses above the backend block and its output', async () => {
    const lenses = (await client.connection.sendRequest('textDocument/codeLens', {
      textDocument: { uri: uri(vpc) },
    })) as CodeLens[];
    assert.deepEqual(lenses, [
      {
        range: { start: { line: 1, character: 2 }, end: { line: 1, character: 14 } },
        command: {
          title: 'in a cycle, no level · 1 dependency · 1 dependent',
          command: 'terrace.showModule',
          arguments: [uri(root), 'network/vpc'],
        },
      },
      {
        range: { start: { line: 23, character: 7 }, end: { line: 23, character: 19 } },
        command: {
          title: 'read by 1 module',
          command: 'terrace.showReferences',
          arguments: [
            uri(vpc),
            { line: 23, character: 7 },
            [{ uri: uri(eks), range: { start: { line: 19, character: 57 }, end: { line: 19, character: 67 } } }],
          ],
        },
      },
    ]);
  });

  test('terrace/graph and terrace/moduleForUri', async () => {
    const graph = (await client.connection.sendRequest(GraphRequest.type, {})) as GraphModel;
    // The api depends on the cycle: it has no level either, and says so (the panel draws it apart).
    assert.deepEqual(
      graph.modules.map((module) => [module.id, module.level, module.inCycle, module.waitsForCycle ?? false]),
      [
        ['app/api', 1, false, true],
        ['network/vpc', 0, true, false],
        ['platform/eks', 0, true, false],
        ['security/firewall', 0, true, false],
      ],
    );
    assert.deepEqual(graph.cycles, [['network/vpc', 'security/firewall', 'platform/eks', 'network/vpc']]);
    assert.equal(graph.edges.filter((edge) => edge.inCycle).length, 3);
    const module = await client.connection.sendRequest(ModuleForUriRequest.type, { uri: uri(eks) });
    assert.equal(module?.id, 'platform/eks');
    assert.equal(module?.waitsForCycle, undefined, 'in the cycle, not behind it');
    const api = await client.connection.sendRequest(ModuleForUriRequest.type, { uri: uri(path.join(root, 'app/api')) });
    assert.equal(api?.id, 'app/api');
    assert.equal(api?.waitsForCycle, true);
  });
});

describe('references that resolve to nothing, or to two writers', () => {
  test('unwritten state (warning) and unresolvable key (information), with hovers saying why', async () => {
    const root = fixture('unresolved-references');
    const api = path.join(root, 'app/api/main.tf');
    const client = await started(root);
    try {
      const diagnostics = await diagnosticsFor(client, api);
      assert.deepEqual(
        diagnostics.map((d) => [d.code, d.severity, d.range.start.line, d.message]),
        [
          [
            'unwritten-state',
            2,
            18,
            'No module in this workspace writes s3://acme-finance-tfstate/billing/terraform.tfstate',
          ],
          [
            'unresolved-reference',
            3,
            27,
            'The state address cannot be resolved statically: key: var.stackname has no default; its known part `${var.stackname}/terraform.tfstate` is too common to tell which module writes it',
          ],
        ],
      );
      const hover = (await client.connection.sendRequest('textDocument/hover', {
        textDocument: { uri: uri(api) },
        position: pos(28),
      })) as Hover;
      assert.deepEqual(hover.contents, {
        kind: 'markdown',
        value:
          '**data.terraform_remote_state.upstream** · s3\n\n- the state address cannot be resolved statically: key: var.stackname has no default; its known part `${var.stackname}/terraform.tfstate` is too common to tell which module writes it',
      });
    } finally {
      await client.dispose();
    }
  });

  test('a panel hover card’s details: where each module is written, its address, its problems’ texts', async () => {
    const root = fixture('unresolved-references');
    const folderUri = uri(root);
    const client = await started(root);
    try {
      const ask = (modules: string[], problems: number) =>
        client.connection.sendRequest(PanelDetailsRequest.type, { folderUri, modules, problems });
      const details = await ask(['network/vpc', 'nowhere', 'app/api'], 6);
      assert.ok(details);
      // In the order asked, without a module the graph does not have; each where it declares its backend.
      assert.deepEqual(
        details.modules.map((m) => [m.id, m.location.uri, m.location.range.start.line, m.address]),
        [
          [
            'network/vpc',
            uri(path.join(root, 'network/vpc/main.tf')),
            1,
            's3://acme-tfstate/network/vpc/terraform.tfstate',
          ],
          ['app/api', uri(path.join(root, 'app/api/main.tf')), 1, 's3://acme-tfstate/app/api/terraform.tfstate'],
        ],
      );
      assert.deepEqual(
        details.problems.map((p) => [p.from, p.name, p.kind]),
        [
          ['app/api', 'billing', 'unresolved'],
          ['app/api', 'upstream', 'unresolved'],
        ],
      );
      assert.match(
        details.problems[0]!.reason,
        /no module in this workspace writes s3:\/\/acme-finance-tfstate\/billing/,
      );
      // The same as the whole graph model says of them.
      const model = (await client.connection.sendRequest(GraphRequest.type, { folderUri })) as GraphModel;
      for (const module of details.modules) {
        const whole = model.modules.find((m) => m.id === module.id)!;
        assert.deepEqual([module.location, module.address], [whole.location, whole.backend?.address]);
      }
      assert.deepEqual(
        details.problems.map(({ from, name, reason }) => ({ from, name, reason })),
        model.unresolved.map(({ from, name, reason }) => ({ from, name, reason })),
      );
      // At most as many texts as asked; none asked, none; a folder that is not one, nothing.
      assert.deepEqual(
        (await ask(['app/api'], 1))?.problems.map((p) => p.name),
        ['billing'],
      );
      assert.deepEqual((await ask(['app/api'], 0))?.problems, []);
      assert.equal(
        await client.connection.sendRequest(PanelDetailsRequest.type, {
          folderUri: uri(path.join(root, 'app')),
          modules: ['app/api'],
          problems: 6,
        }),
        null,
      );
    } finally {
      await client.dispose();
    }
  });

  test('two writers of one state: a warning naming both', async () => {
    const root = fixture('ambiguous-writers');
    const client = await started(root);
    try {
      const diagnostics = await diagnosticsFor(client, path.join(root, 'app/api/main.tf'));
      const ambiguous = diagnostics.filter((d) => d.code === 'ambiguous-writer');
      assert.equal(ambiguous.length, 1);
      assert.equal(ambiguous[0]!.severity, 2);
      assert.equal(ambiguous[0]!.range.start.line, 17);
      assert.match(String(ambiguous[0]!.message), /^2 modules write s3:\/\/\S+: network\/vpc, network\/vpc-next$/);
    } finally {
      await client.dispose();
    }
  });
});

describe('for_each: one line per instance', () => {
  test('hover lists each instance with its address, writer and level', async () => {
    const root = fixture('for-each-and-count');
    const api = path.join(root, 'app/api/main.tf');
    const client = await started(root);
    try {
      const hover = (await client.connection.sendRequest('textDocument/hover', {
        textDocument: { uri: uri(api) },
        position: pos(9),
      })) as Hover;
      const writer = (id: string) => `[${id}](${uri(path.join(root, id, 'main.tf'))}#L2)`;
      assert.deepEqual(hover.contents, {
        kind: 'markdown',
        value: [
          '**data.terraform_remote_state.vpc** · s3',
          '',
          `- \`eu-central-1\`: \`s3://acme-tfstate/network/eu-central-1/vpc/terraform.tfstate\` → ${writer('network/eu-central-1/vpc')} · level 0`,
          `- \`eu-west-1\`: \`s3://acme-tfstate/network/eu-west-1/vpc/terraform.tfstate\` → ${writer('network/eu-west-1/vpc')} · level 0`,
        ].join('\n'),
      });
    } finally {
      await client.dispose();
    }
  });
});

describe('addresses known only in part', () => {
  test('inferred and ambiguous reads in the Problems view and the hover, with what they assume', async () => {
    const root = fixture('known-text-matching');
    const api = path.join(root, 'app/api/main.tf');
    const client = await started(root);
    try {
      const diagnostics = await diagnosticsFor(client, api, (list) => list.length >= 7);
      assert.deepEqual(
        diagnostics.map((d) => [d.code, d.severity, d.range.start.line]).sort((a, b) => Number(a[2]) - Number(b[2])),
        [
          ['inferred-reference', 3, 13],
          ['inferred-reference', 3, 22],
          ['ambiguous-writer', 2, 31],
          ['inferred-reference', 3, 40],
          ['unresolved-reference', 3, 49],
          ['inferred-reference', 3, 59],
          ['inferred-reference', 3, 76],
        ],
      );
      const search = diagnostics.find((d) => d.range.start.line === 13)!;
      assert.equal(
        search.message,
        'Inferred: bucket: var.remote_state_bucket has no default; key: var.stack has no default: only the state of search/blue fits s3://${var.remote_state_bucket}/${var.stack}/search.tfstate, assuming var.remote_state_bucket = "acme-tfstate", var.stack = "blue". Give the variables values (terraform.tfvars or *.auto.tfvars beside the module) to make the match exact.',
      );
      const dns = diagnostics.find((d) => d.range.start.line === 40)!;
      assert.equal(
        dns.message,
        'Inferred: only the state of shared/dns fits s3://acme-tfstate/shared/dns/prod-1/terraform.tfstate, assuming workspace = "prod-1".',
      );
      const hover = (await client.connection.sendRequest('textDocument/hover', {
        textDocument: { uri: uri(api) },
        position: pos(15),
      })) as Hover;
      const text = (hover.contents as { value: string }).value;
      assert.match(
        text,
        /^\*\*data\.terraform_remote_state\.search\*\* · s3\n\n- `s3:\/\/\$\{var\.remote_state_bucket\}\/\$\{var\.stack\}\/search\.tfstate` → \[search\/blue\]\(file:\/\/\S+\/search\/blue\/main\.tf#L3\) · level 0\n {2}- \*\*inferred\*\*: bucket: var\.remote_state_bucket has no default; key: var\.stack has no default; only search\/blue's state fits, assuming var\.remote_state_bucket = "acme-tfstate", var\.stack = "blue"$/,
      );
      const queue = (await client.connection.sendRequest('textDocument/hover', {
        textDocument: { uri: uri(api) },
        position: pos(33),
      })) as Hover;
      assert.match(
        (queue.contents as { value: string }).value,
        /- `s3:\/\/acme-tfstate\/\$\{var\.env\}\/queue\/terraform\.tfstate` → written by 2 modules: \[app\/queue-prod\]\(\S+\), \[app\/queue-stage\]\(\S+\) · \*\*ambiguous\*\*: it runs after all of them$/,
      );
      const graph = (await client.connection.sendRequest(GraphRequest.type, {})) as GraphModel;
      assert.deepEqual(graph.edges.map((edge) => [edge.to, edge.match, edge.assumed]).sort(), [
        ['app/queue-prod', 'ambiguous', { 'var.env': 'prod' }],
        ['app/queue-stage', 'ambiguous', { 'var.env': 'stage' }],
        ['monitoring/blue', 'inferred', { 'coalesce(…)': 'blue' }],
        ['network/vpc', 'inferred', { 'var.remote_state_bucket': null, bucket: null }],
        ['search/blue', 'inferred', { 'var.remote_state_bucket': 'acme-tfstate', 'var.stack': 'blue' }],
        ['shared/dns', 'inferred', { workspace: 'prod-1' }],
        ['shared/dns', 'inferred', { 'terraform.workspace': null, workspace: null }],
      ]);
    } finally {
      await client.dispose();
    }
  });
});

describe('syntax errors', () => {
  test("broken HCL gets Terraform's own message; the rest of the module is still analysed", async () => {
    const root = fixture('broken-hcl');
    const broken = path.join(root, 'app/api/broken.tf');
    const client = await started(root);
    try {
      const diagnostics = await diagnosticsFor(client, broken);
      assert.deepEqual(
        diagnostics.map((d) => [d.code, d.severity, d.range.start.line, d.range.start.character]),
        [['hcl-syntax', 1, 4, 14]],
      );
      assert.equal(
        diagnostics[0]!.message,
        'Invalid expression; Expected the start of an expression, but found an invalid expression token.',
      );
      const graph = (await client.connection.sendRequest(GraphRequest.type, {})) as GraphModel;
      assert.ok(graph.edges.some((edge) => edge.from === 'app/api' && edge.to === 'network/vpc'));
    } finally {
      await client.dispose();
    }
  });
});

describe('live as you type', () => {
  test('an unsaved edit that closes a cycle shows the error; undoing it clears it', async () => {
    const root = fixture('s3-interpolated-keys');
    const vpc = path.join(root, 'network/vpc/main.tf');
    const dns = path.join(root, 'network/dns/main.tf');
    const client = await started(root);
    try {
      const original = readFileSync(vpc, 'utf8');
      const docUri = await client.open(vpc, original);
      const readsDns = `${original}
data "terraform_remote_state" "dns" {
  backend = "s3"
  config = {
    bucket = "acme-tfstate"
    key    = "prod/network/dns/terraform.tfstate"
    region = "eu-central-1"
  }
}
`;
      await client.change(docUri, readsDns, 2);
      const cycle = await latestDiagnostics(client, vpc, (list) => list.some((d) => d.code === 'cycle'));
      assert.equal(cycle[0]!.message, 'Circular dependency: network/dns -> network/vpc -> network/dns');
      const dnsCycle = await latestDiagnostics(client, dns, (list) => list.some((d) => d.code === 'cycle'));
      assert.equal(dnsCycle.length, 1);
      await client.change(docUri, original, 3);
      assert.deepEqual(await latestDiagnostics(client, vpc, (list) => list.length === 0), []);
      assert.deepEqual(await latestDiagnostics(client, dns, (list) => list.length === 0), []);
    } finally {
      await client.dispose();
    }
  });
});

describe('Terraform Stacks: test/fixtures/terraform-stacks', () => {
  const root = fixture('terraform-stacks');
  const components = path.join(root, 'platform/components.tfcomponent.hcl');
  let client: LspTestClient;
  before(async () => {
    client = await started(root);
  });
  after(() => client.dispose());

  test('hover and code lens on a component block: a Stacks component, its level, neighbours and module', async () => {
    const hover = (await client.connection.sendRequest('textDocument/hover', {
      textDocument: { uri: uri(components) },
      position: pos(16, 12),
    })) as Hover;
    const value = (hover.contents as { value: string }).value;
    assert.match(value, /^\*\*Stacks component `platform\/component\.cluster`\*\* · level 2\n/);
    assert.match(value, /Depends on \(1\): \[platform\/component\.network\]/);
    assert.match(value, /Used by \(4\): /);
    assert.match(value, /Module `\.\/modules\/cluster`/);
    const lenses = (await client.connection.sendRequest('textDocument/codeLens', {
      textDocument: { uri: uri(components) },
    })) as CodeLens[];
    const titles = new Map(lenses.map((lens) => [lens.range.start.line, lens.command?.title]));
    assert.equal(titles.size, 10, 'one per component block of the file, the embedded stack’s too');
    assert.equal(titles.get(5), 'level 1 · 1 dependency · 2 dependents');
    assert.equal(titles.get(16), 'level 2 · 1 dependency · 4 dependents');
    assert.equal(titles.get(65), 'in a cycle, no level · 1 dependency · 1 dependent');
  });

  test('definition from a component reference lands on its component block', async () => {
    const locations = (await client.connection.sendRequest('textDocument/definition', {
      textDocument: { uri: uri(components) },
      position: pos(19, 20),
    })) as Location[];
    assert.deepEqual(
      locations.map((location) => [path.relative(root, new URL(location.uri).pathname), location.range.start.line]),
      [['platform/components.tfcomponent.hcl', 5]],
    );
  });

  test('definition from a source: the component’s module, the embedded Stack’s files', async () => {
    const at = async (line: number, character: number) =>
      (
        (await client.connection.sendRequest('textDocument/definition', {
          textDocument: { uri: uri(components) },
          position: pos(line, character),
        })) as Location[]
      ).map((location) => [path.relative(root, new URL(location.uri).pathname), location.range.start.line]);
    // `source = "./modules/network"` of component "network", and `source = "./observability"` of the stack.
    assert.deepEqual(await at(6, 16), [['platform/modules/network/main.tf', 0]]);
    assert.deepEqual(await at(58, 14), [['platform/observability/observability.tfcomponent.hcl', 0]]);
    // A module that is not in the repository has nowhere to go.
    assert.deepEqual(await at(17, 16), []);
  });

  test('find references on a component block: every reference to it in the Stack', async () => {
    const locations = (await client.connection.sendRequest('textDocument/references', {
      textDocument: { uri: uri(components) },
      position: pos(16, 12),
      context: { includeDeclaration: false },
    })) as Location[];
    assert.deepEqual(
      locations.map((location) => [path.relative(root, new URL(location.uri).pathname), location.range.start.line]),
      [
        // apps, through the kubernetes provider configured from the cluster; monitoring; the embedded
        // Stack's component reading the variable its stack block sets from the cluster; that stack block.
        ['platform/components.tfcomponent.hcl', 45],
        ['platform/components.tfcomponent.hcl', 53],
        ['platform/observability/observability.tfcomponent.hcl', 7],
        ['platform/components.tfcomponent.hcl', 60],
      ],
    );
  });

  test('the cycle on each of its references and the unknown component in the published diagnostics', async () => {
    const list = await diagnosticsFor(client, components, (items) => items.length >= 3);
    assert.deepEqual(list.map((d) => [d.code, d.severity, d.range.start.line]).sort(), [
      ['cycle', 1, 68],
      ['cycle', 1, 75],
      ['unknown-component', 1, 76],
    ]);
    const cycle = list.find((d) => d.code === 'cycle')!;
    assert.equal(
      cycle.message,
      'Circular dependency: platform/component.audit -> platform/component.logging -> platform/component.audit',
    );
  });
});

describe('Terragrunt units: test/fixtures/terragrunt-units', () => {
  const root = fixture('terragrunt-units');
  const vpc = path.join(root, 'live/prod/network/vpc/terragrunt.hcl');
  const eks = path.join(root, 'live/prod/platform/eks/terragrunt.hcl');
  const api = path.join(root, 'live/prod/apps/api/terragrunt.hcl');
  const worker = path.join(root, 'live/prod/apps/worker/terragrunt.hcl');
  const dns = path.join(root, 'shared/dns/main.tf');
  const alpha = path.join(root, 'live/ops/alpha/terragrunt.hcl');
  let client: LspTestClient;
  before(async () => {
    client = await started(root);
  });
  after(() => client.dispose());

  test('definition from a dependency block lands on the unit’s terragrunt.hcl', async () => {
    const locations = (await client.connection.sendRequest('textDocument/definition', {
      textDocument: { uri: uri(eks) },
      position: pos(9, 4),
    })) as Location[];
    assert.deepEqual(locations, [{ uri: uri(vpc), range: { start: pos(0, 0), end: pos(0, 0) } }]);
  });

  test('references from a unit (the first line of its terragrunt.hcl): every dependency and state read of it', async () => {
    const locations = (await client.connection.sendRequest('textDocument/references', {
      textDocument: { uri: uri(vpc) },
      position: pos(0, 3),
      context: { includeDeclaration: false },
    })) as Location[];
    assert.deepEqual(
      locations.map((location) => [path.relative(root, new URL(location.uri).pathname), location.range.start.line]),
      [
        ['live/prod/apps/api/terragrunt.hcl', 15],
        ['live/prod/platform/eks/terragrunt.hcl', 8],
        ['shared/dns/main.tf', 9],
      ],
    );
    assert.ok(readFileSync(dns, 'utf8').split('\n')[9]!.startsWith('data "terraform_remote_state" "vpc"'));
  });

  test('hover and code lens on the unit: a Terragrunt unit, its level and neighbours', async () => {
    const hover = (await client.connection.sendRequest('textDocument/hover', {
      textDocument: { uri: uri(api) },
      position: pos(0, 2),
    })) as Hover;
    const value = (hover.contents as { value: string }).value;
    assert.match(value, /^\*\*Terragrunt unit `live\/prod\/apps\/api`\*\* · level 2\n/);
    assert.match(value, /Writes `s3:\/\/acme-tg-state\/live\/prod\/apps\/api\/terraform\.tfstate`/);
    assert.match(value, /Depends on \(3\): \[live\/prod\/network\/vpc\]/);
    const lenses = (await client.connection.sendRequest('textDocument/codeLens', {
      textDocument: { uri: uri(api) },
    })) as CodeLens[];
    assert.deepEqual(
      lenses.map((lens) => [lens.range.start.line, lens.command?.title]),
      [[0, 'level 2 · 3 dependencies · 0 dependents']],
    );
  });

  test('the missing unit and the cycle in the published diagnostics', async () => {
    const [missing] = await diagnosticsFor(client, worker, (list) => list.length > 0);
    assert.deepEqual(
      { code: missing!.code, severity: missing!.severity, line: missing!.range.start.line, message: missing!.message },
      {
        code: 'missing-unit',
        severity: 1,
        line: 13,
        message: '../queue is not a Terragrunt unit of this workspace (no terragrunt.hcl there)',
      },
    );
    const [cycle] = await diagnosticsFor(client, alpha, (list) => list.length > 0);
    assert.equal(cycle!.message, 'Circular dependency: live/ops/alpha -> live/ops/beta -> live/ops/alpha');
    assert.deepEqual(
      cycle!.relatedInformation!.map((info) => info.message),
      ['live/ops/beta: dependency.alpha depends on live/ops/alpha'],
    );
  });

  test('an unsaved edit of the included root.hcl re-keys the units; the plain root that read the old key loses its edge', async () => {
    const rootHcl = path.join(root, 'root.hcl');
    const original = readFileSync(rootHcl, 'utf8');
    const docUri = await client.open(rootHcl, original);
    await client.change(
      docUri,
      original.replace(
        '${path_relative_to_include()}/terraform.tfstate',
        'units/${path_relative_to_include()}.tfstate',
      ),
      2,
    );
    const unwritten = await latestDiagnostics(client, dns, (list) => list.some((d) => d.code === 'unwritten-state'));
    assert.match(
      String(unwritten[0]!.message),
      /No module in this workspace writes s3:\/\/acme-tg-state\/live\/prod\/network\/vpc\/terraform\.tfstate/,
    );
    await client.change(docUri, original, 3);
    assert.deepEqual(await latestDiagnostics(client, dns, (list) => list.length === 0), []);
  });
});

describe('OpenTofu: test/fixtures/opentofu-files', () => {
  const root = fixture('opentofu-files');
  const network = path.join(root, 'network/main.tofu');
  const app = path.join(root, 'app/main.tf');
  let client: LspTestClient;
  before(async () => {
    client = await started(root);
  });
  after(() => client.dispose());

  test('the status says OpenTofu reads the folder; the hover on a .tofu backend names an OpenTofu module', async () => {
    const statuses = client.notifications.filter((n) => n.method === 'terrace/serverStatus');
    assert.equal((statuses.at(-1)!.params as ServerStatusParams).message, '3 modules, 0 cycles · read as OpenTofu');
    const hover = await client.connection.sendRequest<Hover | null>('textDocument/hover', {
      textDocument: { uri: uri(network) },
      position: pos(1),
    });
    assert.ok(hover, 'a hover on the backend');
    const text = (hover.contents as { value: string }).value;
    assert.equal(text.split('\n')[0], '**OpenTofu module `network`** · level 0');
  });

  test('an unsaved edit of a .tofu backend re-keys its root: the reader sees the state unwritten, then written again', async () => {
    const original = readFileSync(network, 'utf8');
    const docUri = await client.open(network, original, 'opentofu');
    await client.change(docUri, original.replace('network/terraform.tfstate', 'network/moved.tfstate'), 2);
    const unwritten = await latestDiagnostics(client, app, (list) => list.some((d) => d.code === 'unwritten-state'));
    assert.deepEqual(
      unwritten.map((d) => [d.range.start.line, d.code]),
      [[8, 'unwritten-state']],
    );
    assert.match(String(unwritten[0]!.message), /s3:\/\/acme-state\/network\/terraform\.tfstate/);
    await client.change(docUri, original, 3);
    assert.deepEqual(await latestDiagnostics(client, app, (list) => list.length === 0), []);
  });

  test('the .tf file a .tofu file replaces is not read: a syntax error there is not reported', async () => {
    const shadowed = path.join(root, 'network/main.tf');
    const original = readFileSync(shadowed, 'utf8');
    const shadowedUri = await client.open(shadowed, original);
    await client.change(shadowedUri, `${original}\nthis does not parse {{{\n`, 2);
    // An edit after it that does count: once its diagnostics are out, the first edit was applied too.
    const tofu = readFileSync(network, 'utf8');
    const tofuUri = await client.open(network, tofu, 'opentofu');
    await client.change(tofuUri, tofu.replace('network/terraform.tfstate', 'network/moved.tfstate'), 2);
    await latestDiagnostics(client, app, (list) => list.some((d) => d.code === 'unwritten-state'));
    const published = client.notifications.filter(
      (n) =>
        n.method === 'textDocument/publishDiagnostics' &&
        (n.params as PublishDiagnosticsParams).uri === uri(shadowed) &&
        (n.params as PublishDiagnosticsParams).diagnostics.length > 0,
    );
    assert.deepEqual(published, []);
    await client.change(tofuUri, tofu, 3);
    await client.change(shadowedUri, original, 3);
    assert.deepEqual(await latestDiagnostics(client, app, (list) => list.length === 0), []);
  });
});
