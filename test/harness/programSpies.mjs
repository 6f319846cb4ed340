// Spies named after the programs Terrace may start, for a folder to put first on a PATH: each writes
// `<name> <arguments>` to a log, then runs the real program when there is one (else exits 127). What
// Terrace started is then read from outside it: the language server's scan, the extension host's runs.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Writes the spies into `dir`; the environment that puts them first on the PATH and names their log. */
export function programSpies(dir, names = ['git', 'terraform', 'terragrunt', 'tofu']) {
  const log = path.join(dir, 'started.log');
  mkdirSync(dir, { recursive: true });
  for (const name of names) {
    const real = (process.env.PATH ?? '')
      .split(path.delimiter)
      .map((folder) => path.join(folder, name))
      .find((file) => existsSync(file));
    const run = real ? `exec '${real}' "$@"` : 'exit 127';
    writeFileSync(path.join(dir, name), `#!/bin/sh\necho "${name} $*" >> '${log}'\n${run}\n`, { mode: 0o755 });
  }
  return { PATH: `${dir}${path.delimiter}${process.env.PATH ?? ''}`, TERRACE_SPY_LOG: log };
}

/** What the spies saw started, a line each (`git ls-files …`); none before the first start. */
export function startedPrograms(log) {
  return existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n').filter(Boolean) : [];
}
