import { type ChildProcess, spawn } from 'node:child_process';

/**
 * The process groups of a run die with the run, even when it is killed outright (SIGKILL leaves
 * no chance to clean up, and terraform would go on holding its state lock): a small watcher
 * process, in a group of its own, is told each terraform group as it starts and ends, through a
 * pipe from the run. When the pipe closes without the run saying goodbye — the run is gone — it
 * interrupts the groups still registered, as Ctrl+C would, then kills them after a grace period.
 * Where there are no process groups (Windows) there is no watcher.
 */
const WATCHER = `
const groups = new Set();
let pending = '';
let done = false;
process.on('SIGINT', () => {});
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  pending += chunk;
  for (let end = pending.indexOf('\\n'); end >= 0; end = pending.indexOf('\\n')) {
    const [op, group] = pending.slice(0, end).split(' ');
    pending = pending.slice(end + 1);
    if (op === '+') groups.add(Number(group));
    else if (op === '-') groups.delete(Number(group));
    else if (op === 'done') done = true;
  }
});
const signal = (name) => { for (const group of groups) try { process.kill(-group, name); } catch {} };
process.stdin.on('end', () => {
  if (done || groups.size === 0) process.exit(0);
  signal('SIGINT');
  setTimeout(() => { signal('SIGKILL'); process.exit(0); }, Number(process.argv[1]));
});
`;

let watcher: ChildProcess | undefined;
const guarded = new Set<number>();

/** Starts watching `group` (a terraform process group) for this process's death. */
export function guardGroup(group: number, graceMs: number): void {
  if (process.platform === 'win32') return;
  guarded.add(group);
  if (!watcher || watcher.exitCode !== null) {
    // The extension host's executable is Electron's: ELECTRON_RUN_AS_NODE makes it a plain Node.
    watcher = spawn(process.execPath, ['--eval', WATCHER, String(graceMs)], {
      detached: true,
      stdio: ['pipe', 'ignore', 'ignore'],
      env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
    });
    watcher.on('error', () => {
      watcher = undefined;
    });
    // Neither the watcher nor its pipe keeps this process running.
    watcher.unref();
    (watcher.stdin as unknown as { unref?: () => void } | null)?.unref?.();
    watcher.stdin?.on('error', () => undefined);
  }
  watcher.stdin?.write(`+ ${group}\n`);
}

/** `group` ended: nothing of it is left to stop. The watcher goes when it has nothing to watch. */
export function releaseGroup(group: number): void {
  if (!guarded.delete(group)) return;
  watcher?.stdin?.write(`- ${group}\n`);
  if (guarded.size === 0) dismissGuardian();
}

/** This process stopped its groups itself (or has none left): the watcher ends without stopping anything. */
export function dismissGuardian(): void {
  guarded.clear();
  watcher?.stdin?.end('done\n');
  watcher = undefined;
}
