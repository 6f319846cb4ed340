import { execFileSync } from 'node:child_process';
import { appendFileSync, chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * A Git repository whose own configuration (`.git/config`, as it arrives in an archive or on a shared
 * drive) names a command at every place where a read-only git command could start one: `core.fsmonitor`,
 * a clean filter and a process filter for `*.tf`, an external diff and a textconv, a pager, and hooks. Each command
 * creates a marker file outside the repository; `ran()` lists those created, so a test can say that
 * reading the repository ran none of them.
 *
 * Its Terraform: `app` reads `network`'s state (one edge); `oidc` is a root only by its lock file, which
 * `.gitignore` matches and Git tracks (`git add -f`): the scan must still ask Git for it. Branch `main`
 * has all of it; the checked-out branch `feature` changes `app` in a commit, and `network/main.tf` is
 * changed in the work tree and not committed.
 */
export interface HostileRepository {
  root: string;
  /** The markers the repository's commands created, by name (`fsmonitor`, `clean`, …); empty when none ran. */
  ran(): string[];
  dispose(): void;
}

const COMMANDS = ['fsmonitor', 'clean', 'process', 'external-diff', 'textconv', 'pager', 'hook'] as const;

export function hostileRepository(): HostileRepository {
  const root = mkdtempSync(path.join(os.tmpdir(), 'terrace-hostile-'));
  const markers = mkdtempSync(path.join(os.tmpdir(), 'terrace-hostile-markers-'));
  const put = (file: string, text: string) => {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  };
  const git = (...args: string[]) =>
    execFileSync('git', ['-C', root, '-c', 'user.email=t@terrace.invalid', '-c', 'user.name=t', ...args], {
      stdio: 'ignore',
    });
  put('.gitignore', '.terraform.lock.hcl\n');
  put('.gitattributes', '*.tf filter=evil diff=evil\n');
  put('network/main.tf', 'terraform {\n  backend "local" {\n    path = "network.tfstate"\n  }\n}\n');
  put(
    'app/main.tf',
    [
      'terraform {\n  backend "local" {\n    path = "app.tfstate"\n  }\n}\n',
      'data "terraform_remote_state" "network" {\n  backend = "local"\n  config = {\n    path = "../network/network.tfstate"\n  }\n}\n',
    ].join('\n'),
  );
  put('oidc/main.tf', 'resource "terraform_data" "oidc" {}\n');
  put('oidc/.terraform.lock.hcl', '# providers\n');
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('add', '-f', 'oidc/.terraform.lock.hcl');
  git('commit', '-qm', 'main');
  git('checkout', '-q', '-b', 'feature');
  appendFileSync(path.join(root, 'app/main.tf'), '\n# a committed change\n');
  git('commit', '-qam', 'feature');

  // The configuration is the repository's: set last, so that making the repository ran none of it.
  const touch = (name: (typeof COMMANDS)[number]) => `touch '${path.join(markers, name)}'`;
  const hooks = path.join(root, '.git', 'evil-hooks');
  mkdirSync(hooks);
  for (const hook of ['post-index-change', 'post-checkout', 'pre-commit']) {
    writeFileSync(path.join(hooks, hook), `#!/bin/sh\n${touch('hook')}\n`);
    chmodSync(path.join(hooks, hook), 0o755);
  }
  const config: [string, string][] = [
    ['core.fsmonitor', `${touch('fsmonitor')}; echo`],
    ['filter.evil.clean', `${touch('clean')}; cat`],
    ['filter.evil.process', `sh -c "${touch('process')}"`],
    ['diff.external', touch('external-diff')],
    ['diff.evil.textconv', `${touch('textconv')}; cat`],
    ['core.pager', `${touch('pager')}; cat`],
    ['core.hooksPath', hooks],
  ];
  for (const [key, value] of config) git('config', key, value);
  // A change in the work tree that git must hash to see, through the filter.
  appendFileSync(path.join(root, 'network/main.tf'), '\n# not committed\n');

  return {
    root,
    ran: () => COMMANDS.filter((name) => existsSync(path.join(markers, name))),
    dispose() {
      rmSync(root, { recursive: true, force: true });
      rmSync(markers, { recursive: true, force: true });
    },
  };
}
