// The history section of `npm run corpus`: for each commit of a truth's `history`, what its change reaches as
// Terrace answers it (`terrace affected --base-ref <commit>^` on the commit's tree), against the modules a
// person who read the commit's diff wrote down (`reaches`); and whether its changed-only pipeline is generated,
// or refused for a cycle among the modules it reaches (`pipeline`, default `generated`); one refused for another
// reason (a module that does not parse) is told, and not compared. Each commit's tree is made in a temporary git work
// tree of the checkout; files the checkout's object store lacks (large files a mirror leaves out) are marked
// skip-worktree there, so git sees no change in them.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const MAX_BUFFER = 1024 * 1024 * 1024;

function git(dir, args, input) {
  return execFileSync('git', ['-C', dir, ...args], { maxBuffer: MAX_BUFFER, input });
}

/** The commit's tree in a new git work tree of `checkout` (its HEAD at the commit): the folder. */
function workTreeAt(checkout, commit) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'terrace-history-'));
  rmSync(dir, { recursive: true });
  git(checkout, ['worktree', 'add', '--quiet', '--detach', '--no-checkout', dir, commit]);
  git(dir, ['read-tree', commit]);
  const entries = git(dir, ['ls-tree', '-r', '-z', '--full-tree', commit])
    .toString('utf8')
    .split('\0')
    .filter(Boolean)
    .map((line) => {
      const [meta, file] = line.split('\t');
      const [mode, type, sha] = meta.split(' ');
      return { mode, type, sha, file };
    })
    .filter((entry) => entry.type === 'blob');
  const contents = blobs(
    dir,
    entries.map((entry) => entry.sha),
  );
  const missing = [];
  for (const entry of entries) {
    const content = contents.get(entry.sha);
    if (content === undefined) {
      missing.push(entry.file);
      continue;
    }
    const target = path.join(dir, entry.file);
    mkdirSync(path.dirname(target), { recursive: true });
    if (entry.mode === '120000') symlinkSync(content.toString('utf8'), target);
    else {
      writeFileSync(target, content);
      if (entry.mode === '100755') chmodSync(target, 0o755);
    }
  }
  if (missing.length > 0) git(dir, ['update-index', '--skip-worktree', '-z', '--stdin'], `${missing.join('\0')}\0`);
  spawnSync('git', ['-C', dir, 'update-index', '-q', '--refresh']);
  return { dir, missing: missing.length };
}

/** The blobs' contents by sha, read in one `git cat-file --batch`; a blob the store lacks is absent. */
function blobs(dir, shas) {
  const unique = [...new Set(shas)];
  const output = git(dir, ['cat-file', '--batch'], `${unique.join('\n')}\n`);
  const found = new Map();
  let at = 0;
  for (const sha of unique) {
    const end = output.indexOf(0x0a, at);
    const header = output.subarray(at, end).toString('utf8');
    at = end + 1;
    if (header.endsWith(' missing')) continue;
    const size = Number(header.split(' ')[2]);
    found.set(sha, output.subarray(at, at + size));
    at += size + 1;
  }
  return found;
}

/** `terrace affected --format json` on a folder. */
function affected(cli, dir, baseRef) {
  const run = spawnSync(process.execPath, [cli, 'affected', dir, '--base-ref', baseRef, '--format', 'json'], {
    encoding: 'utf8',
    maxBuffer: MAX_BUFFER,
  });
  try {
    return JSON.parse(run.stdout);
  } catch {
    throw new Error(`terrace affected did not print JSON (exit ${run.status}): ${run.stderr.trim().slice(0, 500)}`);
  }
}

/**
 * `terrace generate --ci gitlab --changed-only` on a folder: `generated`, or `refused` with the cycles it names
 * (a cycle among the modules the change reaches), or `failed` with what it said.
 */
function changedPipeline(cli, dir, baseRef) {
  const run = spawnSync(
    process.execPath,
    [cli, 'generate', dir, '--ci', 'gitlab', '--changed-only', '--base-ref', baseRef],
    { encoding: 'utf8', maxBuffer: MAX_BUFFER },
  );
  if (run.status === 0) return { outcome: 'generated' };
  const cycles = [...run.stderr.matchAll(/^ {2}(\S.* -> .*)$/gm)].map((match) => match[1]);
  if (/circular dependency/.test(run.stderr)) return { outcome: 'refused', cycles };
  return { outcome: 'failed', message: run.stderr.trim().split('\n').at(-1) };
}

/**
 * Each history commit of `truth` measured in `checkout`: the modules reached, found against true, with
 * the engine's reason for each module it reached that the truth does not list. Prints as it goes.
 */
export function measureHistory(truth, checkout, cli) {
  const commits = [];
  for (const entry of truth.history) {
    const short = entry.commit.slice(0, 7);
    let tree;
    try {
      tree = workTreeAt(checkout, entry.commit);
    } catch (error) {
      console.log(`    ${short}: not measured: ${String(error.message).split('\n')[0]}`);
      commits.push({ commit: entry.commit, measured: false });
      continue;
    }
    try {
      const dir = path.join(tree.dir, truth.root ?? '');
      const answer = affected(cli, dir, `${entry.commit}^`);
      const pipeline = changedPipeline(cli, dir, `${entry.commit}^`);
      const found = answer.modules.filter((module) => module.reached);
      const foundIds = new Set(found.map((module) => module.id));
      const trueIds = new Set(entry.reaches);
      const missed = entry.reaches.filter((id) => !foundIds.has(id));
      const extra = found.filter((module) => !trueIds.has(module.id));
      const right = found.length - extra.length;
      const exact = missed.length === 0 && extra.length === 0;
      const cases = entry.cases.join(', ');
      console.log(
        `    ${short} [${cases}]: ${exact ? 'exact' : 'DIFFERS'}: ${trueIds.size} true, ${found.length} found, ${right} right` +
          `${answer.files.length ? `; ${answer.files.length} changed files` : ''}${tree.missing ? ` (${tree.missing} files not in the object store)` : ''}`,
      );
      // A pipeline refused for another reason (a module that does not parse) says nothing of cycles.
      const expected = entry.pipeline ?? 'generated';
      const compared = pipeline.outcome !== 'failed';
      if (pipeline.outcome !== 'generated' || entry.pipeline)
        console.log(
          `      changed-only pipeline: ${pipeline.outcome}${pipeline.cycles?.length ? ` (${pipeline.cycles.join('; ')})` : ''}${pipeline.message ? `: ${pipeline.message}` : ''}` +
            `${!compared || pipeline.outcome === expected ? '' : `, EXPECTED ${expected}`}`,
        );
      for (const id of missed.slice(0, 10)) console.log(`      missed ${id}`);
      if (missed.length > 10) console.log(`      … and ${missed.length - 10} more missed`);
      for (const module of extra.slice(0, 10)) console.log(`      extra  ${module.id}: ${module.why}`);
      if (extra.length > 10) console.log(`      … and ${extra.length - 10} more extra`);
      commits.push({
        commit: entry.commit,
        measured: true,
        exact,
        true: trueIds.size,
        found: found.length,
        right,
        missed,
        extra: extra.map((module) => module.id),
        pipeline: pipeline.outcome,
        pipelineCompared: compared,
        pipelineRight: compared && pipeline.outcome === expected,
      });
    } finally {
      git(checkout, ['worktree', 'remove', '--force', tree.dir]);
    }
  }
  const measured = commits.filter((commit) => commit.measured);
  const sum = (pick) => measured.reduce((total, commit) => total + pick(commit), 0);
  const figures = {
    commits: commits.length,
    measured: measured.length,
    exact: measured.filter((commit) => commit.exact).length,
    true: sum((commit) => commit.true),
    found: sum((commit) => commit.found),
    right: sum((commit) => commit.right),
    pipelines: measured.filter((commit) => commit.pipeline === 'generated').length,
    pipelinesCompared: measured.filter((commit) => commit.pipelineCompared).length,
    pipelinesRight: measured.filter((commit) => commit.pipelineRight).length,
    commitsMeasured: commits,
  };
  console.log(
    `  history: ${figures.exact} of ${figures.measured} commits exact; modules reached: ${figures.true} true, ${figures.found} found, ${figures.right} right; ` +
      `changed-only pipelines: ${figures.pipelines} generated, ${figures.pipelinesRight} of ${figures.pipelinesCompared} as expected ` +
      `(${figures.measured - figures.pipelinesCompared} refused for modules that do not parse)`,
  );
  return figures;
}
