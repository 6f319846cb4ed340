import { execFileSync } from 'node:child_process';

/** `git -C <dir> …` with a test author, returning its output. */
export type Git = (...args: string[]) => string;

/** git in `dir`; with `commit`, first makes it a repository whose `main` holds what is there. */
export function gitIn(dir: string, commit?: string): Git {
  const env = {
    ...process.env,
    GIT_AUTHOR_NAME: 'Terrace Test',
    GIT_AUTHOR_EMAIL: 'test@terrace.invalid',
    GIT_COMMITTER_NAME: 'Terrace Test',
    GIT_COMMITTER_EMAIL: 'test@terrace.invalid',
  };
  const git: Git = (...args) => execFileSync('git', ['-C', dir, ...args], { env, encoding: 'utf8' });
  if (commit !== undefined) {
    git('init', '-q', '-b', 'main');
    git('add', '-A');
    git('commit', '-q', '-m', commit);
  }
  return git;
}
