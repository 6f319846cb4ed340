// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the strings are Terraform JSON, whose interpolations look like JS ones
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import type {
  Diagnostic,
  Position,
  PrepareRenameResult,
  TextEdit,
  WorkspaceEdit,
} from 'vscode-languageserver-protocol/node';
import { parseHcl } from '../../server/src/engine/hcl';
import { type LspTestClient, latestDiagnostics, repoRoot, started } from './lspClient';

/**
 * Rename of an output over LSP in Terraform's two syntaxes (test/fixtures/output-contracts-json): a `.tf.json`
 * writer's key, its reads in `.tf.json` templates (`outputs[\"vpc_id\"]` too) and in a `.tf` file. Each
 * edit applied to the text: the files still parse, say the new name where the output is read and nowhere
 * else, and the server finds every read declared. A name written with a JSON escape is refused, with why.
 */
const root = path.join(repoRoot, 'test', 'fixtures', 'output-contracts-json');
const writer = path.join(root, 'network/vpc/main.tf.json');
const api = path.join(root, 'app/api/main.tf.json');
const web = path.join(root, 'app/web/main.tf');
const uri = (file: string) => pathToFileURL(file).href;

/** The position of `text` on the line holding `marker`, `offset` characters in. */
function at(file: string, marker: string, text: string, offset = 1): Position {
  const lines = readFileSync(file, 'utf8').split('\n');
  const line = lines.findIndex((candidate) => candidate.includes(marker));
  assert.ok(line >= 0, marker);
  return { line, character: lines[line]!.indexOf(text, lines[line]!.indexOf(marker)) + offset };
}

/** The text with the edits applied, the last first. */
function applied(text: string, edits: readonly TextEdit[]): string {
  const lines = text.split('\n');
  const offset = (position: Position) =>
    lines.slice(0, position.line).reduce((sum, line) => sum + line.length + 1, 0) + position.character;
  return [...edits]
    .sort((a, b) => offset(b.range.start) - offset(a.range.start))
    .reduce((result, edit) => {
      assert.ok(offset(edit.range.end) >= offset(edit.range.start), 'an edit runs forward');
      return result.slice(0, offset(edit.range.start)) + edit.newText + result.slice(offset(edit.range.end));
    }, text);
}

describe('rename of an output in .tf.json and .tf files', () => {
  let client: LspTestClient;
  const request = <R>(method: string, params: object) => client.connection.sendRequest<R>(method, params);
  const missing = (file: string, count: number) =>
    latestDiagnostics(client, file, (list) => list.filter((d) => d.code === 'missing-output').length === count);
  before(async () => {
    client = await started(root);
  });
  after(() => client.dispose());

  test('the errors of a .tf.json reader sit on the names in its strings', async () => {
    const found = (await missing(api, 2))
      .filter((d) => d.code === 'missing-output')
      .map((d) => [d.range.start, d.range.end.character, d.message]);
    assert.deepEqual(found, [
      [
        at(api, '"label"', 'subnet_idz', 0),
        at(api, '"label"', 'subnet_idz', 10).character,
        'network/vpc declares no output "subnet_idz"; did you mean "subnet_ids"?',
      ],
      [
        at(api, '"tabbed"', 'vpc_idz', 0),
        at(api, '"tabbed"', 'vpc_idz', 7).character,
        'network/vpc declares no output "vpc_idz"; did you mean "vpc_id"?',
      ],
    ]);
  });

  test('from the writer’s key: the key and the five reads; applied, the files parse and read the new name', async () => {
    const position = at(writer, '"vpc_id": {', 'vpc_id');
    const start = await request<PrepareRenameResult>('textDocument/prepareRename', {
      textDocument: { uri: uri(writer) },
      position,
    });
    assert.deepEqual(start, {
      range: { start: at(writer, '"vpc_id": {', 'vpc_id', 0), end: at(writer, '"vpc_id": {', 'vpc_id', 6) },
      placeholder: 'vpc_id',
    });
    const edit = await request<WorkspaceEdit>('textDocument/rename', {
      textDocument: { uri: uri(writer) },
      position,
      newName: 'network_id',
    });
    assert.deepEqual(Object.keys(edit.changes!).sort(), [uri(api), uri(web), uri(writer)].sort());
    // The same edit from a read written `outputs["vpc_id"]` in the .tf reader.
    const fromWeb = await request<WorkspaceEdit>('textDocument/rename', {
      textDocument: { uri: uri(web) },
      position: at(web, 'again', 'vpc_id'),
      newName: 'network_id',
    });
    const sorted = (changes: WorkspaceEdit) =>
      Object.fromEntries(
        Object.entries(changes.changes!).map(([file, edits]) => [
          file,
          [...edits].sort((a, b) => a.range.start.line - b.range.start.line),
        ]),
      );
    assert.deepEqual(sorted(fromWeb), sorted(edit));

    const texts = new Map(
      [writer, api, web].map((file) => [file, applied(readFileSync(file, 'utf8'), edit.changes![uri(file)]!)]),
    );
    const vpc = JSON.parse(texts.get(writer)!) as { locals: Record<string, string>; output: Record<string, unknown> };
    assert.deepEqual(Object.keys(vpc.output), ['network_id', 'subnet_ids']);
    assert.equal(vpc.locals.first_output, 'vpc_id');
    const reader = JSON.parse(texts.get(api)!) as {
      locals: Record<string, string>;
      output: Record<string, { value: string }>;
    };
    assert.deepEqual(reader.locals, {
      vpc_id: '${data.terraform_remote_state.vpc.outputs.network_id}',
      quoted: '${data.terraform_remote_state.vpc.outputs["network_id"]}',
      label: '${format("%s-%s", "api", data.terraform_remote_state.vpc.outputs.subnet_idz[0])}',
      tabbed: '\t${data.terraform_remote_state.vpc.outputs.vpc_idz}',
    });
    assert.deepEqual(reader.output, { vpc_id: { value: '${data.terraform_remote_state.vpc.outputs.network_id}' } });
    const webText = texts.get(web)!;
    assert.deepEqual(parseHcl(webText).errors, []);
    assert.deepEqual(
      webText
        .split('\n')
        .filter((line) => line.includes('outputs'))
        .map((line) => line.trim()),
      [
        'vpc_id = data.terraform_remote_state.vpc.outputs.network_id',
        'again  = data.terraform_remote_state.vpc.outputs["network_id"]',
      ],
    );

    // The renamed texts, as unsaved buffers: every read of `network_id` is declared, the two typos remain
    // (`vpc_idz` now near no declared name).
    let version = 1;
    for (const [file, text] of texts)
      await client.open(file, text, file.endsWith('.json') ? 'json' : 'terraform', ++version);
    try {
      const messages = (list: Diagnostic[]) =>
        list.filter((d) => d.code === 'missing-output').map((d) => String(d.message));
      const expected = [
        'network/vpc declares no output "subnet_idz"; did you mean "subnet_ids"?',
        'network/vpc declares no output "vpc_idz"',
      ];
      const left = await latestDiagnostics(client, api, (list) => messages(list).join('\n') === expected.join('\n'));
      assert.deepEqual(messages(left), expected);
      // The .tf reader's read, renamed: the writer declares it.
      const again = at(web, 'again', 'vpc_id').line;
      const hover = await request<{ contents: { value: string } }>('textDocument/hover', {
        textDocument: { uri: uri(web) },
        position: { line: again, character: webText.split('\n')[again]!.indexOf('network_id') + 1 },
      });
      assert.match(hover.contents.value, /^\*\*Output `network_id`\*\* of \[network\/vpc\]/);
      assert.match(hover.contents.value, /Declared in \[network\/vpc\/main\.tf\.json:22\]/);
    } finally {
      for (const file of texts.keys()) await client.change(uri(file), readFileSync(file, 'utf8'), ++version);
    }
    await latestDiagnostics(client, api, (list) =>
      list.some((d) => String(d.message).endsWith('did you mean "vpc_id"?')),
    );
  });

  test('a name written with a JSON escape: the rename is refused, saying where', async () => {
    const original = readFileSync(writer, 'utf8');
    await client.open(writer, original, 'json', 10);
    await client.change(uri(writer), original.replace('"vpc_id": {', '"vpc\\u005fid": {'), 11);
    try {
      await assert.rejects(
        request<WorkspaceEdit>('textDocument/rename', {
          textDocument: { uri: uri(web) },
          position: at(web, 'again', 'vpc_id'),
          newName: 'network_id',
        }),
        {
          message: `network/vpc/main.tf.json line ${at(writer, '"vpc_id": {', 'vpc_id').line + 1} does not write the output's name as "vpc_id" (it holds "\\"vpc\\\\u005fid\\""): written with escapes, over several lines or changed since, it cannot be renamed exactly, so nothing is.`,
        },
      );
    } finally {
      await client.change(uri(writer), original, 12);
    }
  });
});
