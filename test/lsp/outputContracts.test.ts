import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import type {
  CodeLens,
  CompletionItem,
  Hover,
  Location,
  Position,
  PrepareRenameResult,
  WorkspaceEdit,
} from 'vscode-languageserver-protocol/node';
import { LspTestClient, latestDiagnostics, repoRoot, started } from './lspClient';

/**
 * The contract between states in the editor, over a real LSP connection: completion of a writer's outputs,
 * hover on a use, definition, references and code lenses of an `output` block, rename with its refusals,
 * and the errors on every reader once an unsaved edit deletes an output.
 */
const fixture = (name: string) => path.join(repoRoot, 'test', 'fixtures', name);
const uri = (file: string) => pathToFileURL(file).href;

/** The position of the first `text` on line `line` (0-based) of the file on disk, plus `offset`. */
function at(file: string, line: number, text: string, offset = 0): Position {
  const character = readFileSync(file, 'utf8').split('\n')[line]!.indexOf(text);
  assert.ok(character >= 0, `${text} on line ${line + 1} of ${file}`);
  return { line, character: character + offset };
}

const range = (line: number, start: number, end: number) => ({
  start: { line, character: start },
  end: { line, character: end },
});

describe('outputs between states: test/fixtures/output-contracts', () => {
  const root = fixture('output-contracts');
  const main = path.join(root, 'app/api/main.tf');
  const service = path.join(root, 'app/api/service.tf');
  const child = path.join(root, 'modules/service/main.tf');
  const outputs = path.join(root, 'network/vpc/outputs.tf');
  const vpcMain = path.join(root, 'network/vpc/main.tf');
  const dns = path.join(root, 'network/dns/main.tf');
  let client: LspTestClient;
  const request = <R>(method: string, params: object) => client.connection.sendRequest<R>(method, params);
  const relative = (location: Location) => [
    path.relative(root, new URL(location.uri).pathname),
    location.range.start.line,
    location.range.start.character,
    location.range.end.character,
  ];
  before(async () => {
    client = await started(root);
  });
  after(() => client.dispose());

  test('the server advertises completion and rename with prepareRename', async () => {
    const other = LspTestClient.start();
    try {
      const result = await other.initialize(root);
      assert.deepEqual(result.capabilities.completionProvider, { triggerCharacters: ['.', '"'] });
      assert.deepEqual(result.capabilities.renameProvider, { prepareProvider: true });
    } finally {
      await other.dispose();
    }
  });

  test('completion after `.outputs.`: the writer’s outputs by name, value and sensitivity as detail', async () => {
    await client.open(main, readFileSync(main, 'utf8'));
    const items = await request<CompletionItem[]>('textDocument/completion', {
      textDocument: { uri: uri(main) },
      position: at(main, 34, 'outputs.vpc_id', 'outputs.'.length),
    });
    assert.deepEqual(items, [
      { label: 'azs', kind: 10, detail: '["eu-central-1a", "eu-central-1b"]', sortText: 'azs' },
      {
        label: 'flow_log_key',
        kind: 10,
        detail: 'sensitive · "kms-key"',
        documentation: { kind: 'plaintext', value: 'The key flow logs are encrypted with.' },
        sortText: 'flow_log_key',
      },
      {
        label: 'private_subnet_ids',
        kind: 10,
        detail: '["subnet-a", "subnet-b"]',
        documentation: { kind: 'plaintext', value: 'One private subnet per availability zone.' },
        sortText: 'private_subnet_ids',
      },
      { label: 'public_subnet_ids', kind: 10, detail: '["subnet-c"]', sortText: 'public_subnet_ids' },
      {
        label: 'vpc_id',
        kind: 10,
        detail: 'terraform_data.vpc.id',
        documentation: { kind: 'plaintext', value: "The VPC's id." },
        sortText: 'vpc_id',
      },
    ]);
  });

  test('completion inside `outputs["` and on one instance of a for_each read: that instance’s writer', async () => {
    const quoted = await request<CompletionItem[]>('textDocument/completion', {
      textDocument: { uri: uri(main) },
      position: at(main, 35, 'outputs["', 'outputs["'.length),
    });
    assert.equal(quoted.length, 5);
    const dnsOnly = await request<CompletionItem[]>('textDocument/completion', {
      textDocument: { uri: uri(main) },
      position: at(main, 40, 'outputs.zone_id', 'outputs.'.length),
    });
    assert.deepEqual(
      dnsOnly.map((item) => [item.label, item.detail]),
      [['zone_id', 'terraform_data.zone.id']],
    );
    // Elsewhere: nothing.
    const none = await request<CompletionItem[]>('textDocument/completion', {
      textDocument: { uri: uri(main) },
      position: { line: 2, character: 4 },
    });
    assert.deepEqual(none, []);
  });

  test('completion through a local, a child module’s variable: the outputs they hold whole', async () => {
    const labels = async (file: string, position: Position) => {
      await client.open(file, readFileSync(file, 'utf8'));
      const items = await request<CompletionItem[]>('textDocument/completion', {
        textDocument: { uri: uri(file) },
        position,
      });
      return items.map((item) => item.label);
    };
    const vpcOutputs = ['azs', 'flow_log_key', 'private_subnet_ids', 'public_subnet_ids', 'vpc_id'];
    assert.deepEqual(await labels(service, at(service, 1, 'network.vpc_id', 'network.'.length)), vpcOutputs);
    assert.deepEqual(await labels(child, at(child, 5, 'network.private', 'network.'.length)), vpcOutputs);
    // `local.remote.` names the object that holds them, not the outputs: nothing.
    assert.deepEqual(await labels(service, at(service, 1, 'remote.network', 'remote.'.length)), []);
  });

  test('hover on a use: the writer, its level, the description, sensitivity, value and where it is declared', async () => {
    const hover = await request<Hover>('textDocument/hover', {
      textDocument: { uri: uri(main) },
      position: at(main, 34, 'outputs.vpc_id', 'outputs.v'.length),
    });
    assert.deepEqual(hover.contents, {
      kind: 'markdown',
      value: [
        `**Output \`vpc_id\`** of [network/vpc](${uri(vpcMain)}#L2) · level 0`,
        '',
        "The VPC's id.",
        '',
        'Value `terraform_data.vpc.id` · not sensitive',
        '',
        `Declared in [network/vpc/outputs.tf:1](${uri(outputs)}#L1)`,
      ].join('\n'),
    });
    const both = await request<Hover>('textDocument/hover', {
      textDocument: { uri: uri(main) },
      position: at(main, 41, 'outputs.zone_id', 'outputs.z'.length),
    });
    assert.deepEqual((both.contents as { value: string }).value.split('\n\n'), [
      `**Output \`zone_id\`** of [network/dns](${uri(dns)}#L2) · level 0`,
      'The hosted zone.',
      'Value `terraform_data.zone.id` · not sensitive',
      `Declared in [network/dns/main.tf:13](${uri(dns)}#L13)`,
      `**Output \`zone_id\`** of [network/vpc](${uri(vpcMain)}#L2) · level 0`,
      'network/vpc declares no output "zone_id"',
    ]);
  });

  test('hover on the remote_state block lists the outputs read through it', async () => {
    const hover = await request<Hover>('textDocument/hover', {
      textDocument: { uri: uri(main) },
      position: { line: 8, character: 5 },
    });
    const value = (hover.contents as { value: string }).value;
    assert.equal(
      value.split('\n').at(-1),
      'Outputs read: `availability_zones`, `azs`, `nat_gateway_id`, `private_subnet_ids`, `private_subnet_idz`, `public_subnet_ids`, `vpc_id` · 1 by a name computed at plan time',
    );
  });

  test('hover on an output block: who reads it, each read a link; or that no module does', async () => {
    const hover = async (file: string, position: Position) =>
      (
        (await request<Hover>('textDocument/hover', { textDocument: { uri: uri(file) }, position })).contents as {
          value: string;
        }
      ).value;
    const link = (file: string, line: number) => `[${path.relative(root, file)}:${line}](${uri(file)}#L${line})`;
    assert.equal(
      await hover(outputs, { line: 0, character: 10 }),
      [
        '**Output `vpc_id`** of network/vpc',
        'Read by 1 module:',
        `- [app/api](${uri(main)}#L2): ${link(main, 35)}, ${link(service, 2)}, ${link(service, 12)}`,
      ].join('\n\n'),
    );
    assert.equal(
      await hover(outputs, { line: 18, character: 10 }),
      '**Output `flow_log_key`** of network/vpc\n\nRead by no module in this workspace.',
    );
  });

  test('definition from a use: the writer’s output block; from a for_each read of two writers, the one that declares it', async () => {
    const vpcId = await request<Location[]>('textDocument/definition', {
      textDocument: { uri: uri(service) },
      position: at(service, 1, 'vpc_id', 2),
    });
    assert.deepEqual(vpcId, [{ uri: uri(outputs), range: range(0, 7, 15) }]);
    const zone = await request<Location[]>('textDocument/definition', {
      textDocument: { uri: uri(main) },
      position: at(main, 41, 'zone_id', 2),
    });
    assert.deepEqual(zone, [{ uri: uri(dns), range: range(12, 7, 16) }]);
  });

  test('references on an output block: every use in every reader, a child module’s too', async () => {
    const locations = await request<Location[]>('textDocument/references', {
      textDocument: { uri: uri(outputs) },
      position: { line: 5, character: 12 },
      context: { includeDeclaration: true },
    });
    assert.deepEqual(locations.map(relative), [
      ['network/vpc/outputs.tf', 5, 7, 27],
      ['app/api/main.tf', 35, 54, 74],
      ['modules/service/main.tf', 5, 22, 40],
    ]);
    const fromUse = await request<Location[]>('textDocument/references', {
      textDocument: { uri: uri(main) },
      position: at(main, 34, 'vpc_id', 'vpc_id  = data.terraform_remote_state.vpc.outputs.v'.length),
      context: { includeDeclaration: false },
    });
    assert.deepEqual(fromUse.map(relative), [
      ['app/api/main.tf', 34, 54, 60],
      ['app/api/service.tf', 1, 42, 48],
      ['app/api/service.tf', 11, 50, 56],
    ]);
  });

  test('a code lens on each output block: who reads it; a click shows the references', async () => {
    const lenses = await request<CodeLens[]>('textDocument/codeLens', { textDocument: { uri: uri(outputs) } });
    assert.deepEqual(
      lenses.map((lens) => [lens.range.start.line, lens.command?.title, lens.command?.command]),
      [
        [0, 'read by 1 module', 'terrace.showReferences'],
        [5, 'read by 1 module', 'terrace.showReferences'],
        [10, 'read by 1 module', 'terrace.showReferences'],
        [14, 'read by 1 module', 'terrace.showReferences'],
        [18, 'read by no module in this workspace', ''],
      ],
    );
    const [uriArg, position, locations] = lenses[0]!.command!.arguments as [string, Position, Location[]];
    assert.equal(uriArg, uri(outputs));
    assert.deepEqual(position, { line: 0, character: 7 });
    assert.deepEqual(locations.map(relative), [
      ['app/api/main.tf', 34, 54, 60],
      ['app/api/service.tf', 1, 42, 48],
      ['app/api/service.tf', 11, 50, 56],
    ]);
    const own = await request<CodeLens[]>('textDocument/codeLens', { textDocument: { uri: uri(service) } });
    assert.deepEqual(
      own.map((lens) => [lens.range.start.line, lens.command?.title]),
      [[10, 'read by no module in this workspace']],
    );
  });

  test('prepareRename refuses an output a reader names by a computed name, and a computed use', async () => {
    await assert.rejects(
      request<PrepareRenameResult>('textDocument/prepareRename', {
        textDocument: { uri: uri(outputs) },
        position: { line: 0, character: 10 },
      }),
      {
        message:
          'app/api reads an output of network/vpc by a name computed at plan time (app/api/main.tf line 40): it may read "vpc_id", and a rename cannot follow it.',
      },
    );
    await assert.rejects(
      request<PrepareRenameResult>('textDocument/prepareRename', {
        textDocument: { uri: uri(main) },
        position: at(main, 39, 'var.output_name', 1),
      }),
      { message: 'This output’s name is computed at plan time: there is no name to rename.' },
    );
    assert.equal(
      await request<PrepareRenameResult | null>('textDocument/prepareRename', {
        textDocument: { uri: uri(main) },
        position: { line: 2, character: 4 },
      }),
      null,
    );
  });

  test('rename of an output: its block and every use, one workspace edit', async () => {
    const start = await request<PrepareRenameResult>('textDocument/prepareRename', {
      textDocument: { uri: uri(main) },
      position: at(main, 40, 'zone_id', 3),
    });
    assert.deepEqual(start, { range: range(40, 61, 68), placeholder: 'zone_id' });
    const edit = await request<WorkspaceEdit>('textDocument/rename', {
      textDocument: { uri: uri(dns) },
      position: { line: 12, character: 10 },
      newName: 'hosted_zone_id',
    });
    assert.deepEqual(edit, {
      changes: {
        [uri(dns)]: [{ range: range(12, 8, 15), newText: 'hosted_zone_id' }],
        [uri(main)]: [
          { range: range(40, 61, 68), newText: 'hosted_zone_id' },
          { range: range(41, 90, 97), newText: 'hosted_zone_id' },
        ],
      },
    });
    await assert.rejects(
      request<WorkspaceEdit>('textDocument/rename', {
        textDocument: { uri: uri(dns) },
        position: { line: 12, character: 10 },
        newName: 'hosted zone',
      }),
      { message: '"hosted zone" is not a valid output name: a letter or _, then letters, digits, _ and -.' },
    );
  });

  test('an unsaved edit that drops the computed read makes the output renamable: quoted uses keep their quotes', async () => {
    const original = readFileSync(main, 'utf8');
    const withoutComputed = original.replace(/^ {4}chosen .*\n/m, '');
    await client.change(uri(main), withoutComputed, 2);
    try {
      const edit = await request<WorkspaceEdit>('textDocument/rename', {
        textDocument: { uri: uri(outputs) },
        position: { line: 5, character: 12 },
        newName: 'private_subnets',
      });
      assert.deepEqual(edit, {
        changes: {
          [uri(outputs)]: [{ range: range(5, 8, 26), newText: 'private_subnets' }],
          [uri(main)]: [{ range: range(35, 55, 73), newText: 'private_subnets' }],
          [uri(child)]: [{ range: range(5, 22, 40), newText: 'private_subnets' }],
        },
      });
    } finally {
      await client.change(uri(main), original, 3);
    }
  });

  test('an unsaved edit that deletes an output block: the error on every reader, in files not open', async () => {
    const original = readFileSync(outputs, 'utf8');
    await client.open(outputs, original);
    await client.change(uri(outputs), original.replace(/output "vpc_id" \{[^}]*\}\n\n/, ''), 2);
    try {
      const missing = (list: { code?: string | number }[]) => list.filter((d) => d.code === 'missing-output');
      const inMain = await latestDiagnostics(client, main, (list) => missing(list).length === 3);
      const inService = await latestDiagnostics(client, service, (list) => missing(list).length === 3);
      const lines = [...inMain, ...inService]
        .filter((d) => d.code === 'missing-output')
        .map((d) => [d.range.start.line, d.range.start.character, d.severity, d.message]);
      assert.deepEqual(lines, [
        [34, 54, 1, 'network/vpc declares no output "vpc_id"'],
        [38, 54, 1, 'network/vpc declares no output "private_subnet_idz"; did you mean "private_subnet_ids"?'],
        [41, 90, 1, 'network/vpc declares no output "zone_id"'],
        [1, 42, 1, 'network/vpc declares no output "vpc_id"'],
        [2, 43, 1, 'network/vpc declares no output "nat_gateway_id"'],
        [11, 50, 1, 'network/vpc declares no output "vpc_id"'],
      ]);
    } finally {
      await client.change(uri(outputs), original, 3);
    }
    await latestDiagnostics(client, service, (list) => list.filter((d) => d.code === 'missing-output').length === 1);
  });
});

describe('outputs of a Terragrunt dependency: test/fixtures/output-contracts-terragrunt', () => {
  const root = fixture('output-contracts-terragrunt');
  const app = path.join(root, 'live/app/terragrunt.hcl');
  const vpcCode = path.join(root, 'modules/vpc/main.tf');
  let client: LspTestClient;
  before(async () => {
    client = await started(root);
  });
  after(() => client.dispose());

  test('completion after `dependency.vpc.outputs.`: the outputs of the unit’s Terraform code', async () => {
    await client.open(app, readFileSync(app, 'utf8'), 'terragrunt');
    const items = await client.connection.sendRequest<CompletionItem[]>('textDocument/completion', {
      textDocument: { uri: uri(app) },
      position: at(app, 21, 'outputs.vpc_id', 'outputs.'.length),
    });
    assert.deepEqual(
      items.map((item) => [item.label, item.detail]),
      [
        ['subnet_ids', '["subnet-a", "subnet-b"]'],
        ['vpc_id', 'terraform_data.vpc.id'],
      ],
    );
  });

  test('code lenses on the unit’s code and the rename of an output it declares: reads through a local, mock_outputs', async () => {
    const lenses = await client.connection.sendRequest<CodeLens[]>('textDocument/codeLens', {
      textDocument: { uri: uri(vpcCode) },
    });
    assert.deepEqual(
      lenses.map((lens) => [lens.range.start.line, lens.command?.title]),
      [
        [8, 'read by 1 module'],
        [13, 'read by 1 module'],
      ],
    );
    const edit = await client.connection.sendRequest<WorkspaceEdit>('textDocument/rename', {
      textDocument: { uri: uri(vpcCode) },
      position: { line: 13, character: 10 },
      newName: 'subnets',
    });
    assert.deepEqual(edit, {
      changes: {
        [uri(vpcCode)]: [{ range: range(13, 8, 18), newText: 'subnets' }],
        [uri(app)]: [{ range: range(23, 31, 41), newText: 'subnets' }],
      },
    });
    // The dependency's `mock_outputs` key is renamed with the reads.
    const vpcId = await client.connection.sendRequest<WorkspaceEdit>('textDocument/rename', {
      textDocument: { uri: uri(vpcCode) },
      position: { line: 8, character: 10 },
      newName: 'network_id',
    });
    assert.deepEqual(vpcId, {
      changes: {
        [uri(vpcCode)]: [{ range: range(8, 8, 14), newText: 'network_id' }],
        [uri(app)]: [
          { range: range(21, 40, 46), newText: 'network_id' },
          { range: range(11, 4, 10), newText: 'network_id' },
        ],
      },
    });
  });
});
