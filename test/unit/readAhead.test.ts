import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { WorkspaceAnalysis } from '../../server/src/engine/analysis';
import { defaultOptions } from '../../server/src/engine/config';

/**
 * A workspace large enough that a second thread reads its files ahead of the parse: each file is read as a
 * small one is, the files the thread leaves (not UTF-8, UTF-16, a byte order mark) included.
 */
const top = mkdtempSync(path.join(os.tmpdir(), 'terrace-read-ahead-'));
after(() => rmSync(top, { recursive: true, force: true }));

const MODULES = 500;

function backend(key: string): string {
  return `terraform {\n  backend "s3" {\n    bucket = "b"\n    key    = "${key}"\n    region = "eu-west-1"\n  }\n}\n`;
}

function reader(name: string, key: string): string {
  return `data "terraform_remote_state" "${name}" {\n  backend = "s3"\n  config = {\n    bucket = "b"\n    key    = "${key}"\n    region = "eu-west-1"\n  }\n}\n`;
}

test('a workspace of thousands of files is read as file by file, each file as Terraform reads it', async () => {
  for (let n = 0; n < MODULES; n++) {
    const dir = path.join(top, `m${n}`);
    mkdirSync(dir);
    writeFileSync(path.join(dir, 'backend.tf'), backend(`m${n}.tfstate`));
    writeFileSync(path.join(dir, 'data.tf'), n > 0 ? reader('up', `m${n - 1}.tfstate`) : '');
    writeFileSync(path.join(dir, 'variables.tf'), 'variable "x" {\n  default = "é"\n}\n');
    writeFileSync(path.join(dir, 'main.tf'), '# nothing here\n');
  }
  // The last files of the list, which the thread reads: a byte order mark, UTF-16, bytes that are not UTF-8.
  const last = path.join(top, `m${MODULES - 1}`);
  writeFileSync(path.join(last, 'data.tf'), `\ufeff${reader('up', `m${MODULES - 2}.tfstate`)}`);
  writeFileSync(path.join(last, 'main.tf'), Buffer.from('\ufeffvariable "y" {}\n', 'utf16le'));
  writeFileSync(path.join(last, 'variables.tf'), Buffer.from([0x23, 0x20, 0xc3, 0x28, 0x0a]));

  const analysis = new WorkspaceAnalysis(top, defaultOptions());
  await analysis.load();
  const result = analysis.result();
  assert.equal(result.modules.length, MODULES);
  assert.equal(result.edges.length, MODULES - 1);
  assert.deepEqual(
    result.syntaxErrors.map((error) => [path.relative(top, error.file), error.message.split(';')[0]]),
    [
      ['m499/main.tf', 'this file is saved as UTF-16'],
      ['m499/variables.tf', 'this file is not valid UTF-8, the only encoding Terraform reads: save it as UTF-8'],
    ],
  );
});
