import { spawn } from 'node:child_process';
import { dismissGuardian, guardGroup, releaseGroup } from './runGuardian';

/**
 * Runs one terraform (or tofu) command in its own process group (`detached`), so that stopping
 * it reaches everything it started (provisioners' shells, plugins) and nothing is orphaned.
 * Stopping is Terraform's graceful interrupt first (SIGINT to the group, as Ctrl+C would send),
 * then SIGKILL to the group after a grace period. The same happens when this process is killed
 * outright (`runGuardian.ts`).
 */

export interface TerraformCommand {
  /** The binary: an absolute path, or a name looked up on PATH. */
  binary: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  signal?: AbortSignal;
  /** Each line of output (stdout and stderr, in arrival order), without its line break. */
  onLine?: (line: string, stream: 'stdout' | 'stderr') => void;
  /** Milliseconds between the interrupt and the kill when `signal` aborts; 5 s by default. */
  graceMs?: number;
  /** Keep stdout instead of passing it to onLine (for `show -json`). */
  captureStdout?: boolean;
  /** Called once terraform runs, with its process group (for the module's lock). */
  onStart?: (group: number) => void;
}

export interface TerraformExit {
  /** The exit code; null when the process was ended by a signal. */
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Whether the run was stopped through `signal`. */
  cancelled: boolean;
  /** The process group id (= the pid of the terraform process). */
  pid: number | undefined;
  stdout: string;
}

/** The process groups of every terraform still running from this process. */
const liveGroups = new Set<number>();
let exitHookInstalled = false;

/** Kills every terraform process group this process started: when it exits, nothing stays behind. */
export function killAllProcessGroups(): void {
  for (const group of liveGroups) killGroup(group, 'SIGKILL');
  liveGroups.clear();
  dismissGuardian();
}

export function runTerraform(command: TerraformCommand): Promise<TerraformExit> {
  installExitHook();
  return new Promise((resolve, reject) => {
    if (command.signal?.aborted) {
      resolve({ code: null, signal: null, cancelled: true, pid: undefined, stdout: '' });
      return;
    }
    const child = spawn(command.binary, command.args, {
      cwd: command.cwd,
      env: command.env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const pid = child.pid;
    if (pid !== undefined) {
      liveGroups.add(pid);
      // If this process is killed outright, the watcher stops the group (see runGuardian.ts).
      guardGroup(pid, command.graceMs ?? 5_000);
      command.onStart?.(pid);
    }
    let cancelled = false;
    let killTimer: NodeJS.Timeout | undefined;
    let stdout = '';

    const onAbort = () => {
      if (pid === undefined || cancelled) return;
      cancelled = true;
      killGroup(pid, 'SIGINT');
      killTimer = setTimeout(() => killGroup(pid, 'SIGKILL'), command.graceMs ?? 5_000);
    };
    command.signal?.addEventListener('abort', onAbort, { once: true });

    const lines = (stream: 'stdout' | 'stderr') => {
      let partial = '';
      return {
        data: (chunk: Buffer) => {
          const text = partial + chunk.toString('utf8');
          const parts = text.split(/\r?\n/);
          partial = parts.pop() ?? '';
          for (const line of parts) command.onLine?.(line, stream);
        },
        end: () => {
          if (partial !== '') command.onLine?.(partial, stream);
          partial = '';
        },
      };
    };
    const out = lines('stdout');
    const err = lines('stderr');
    if (command.captureStdout) child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    else child.stdout.on('data', out.data);
    child.stderr.on('data', err.data);

    child.on('error', (error) => {
      cleanUp();
      reject(error);
    });
    child.on('close', (code, signal) => {
      out.end();
      err.end();
      // After a stop, nothing of the group may outlive it (a provisioner that ignored the interrupt).
      if (cancelled && pid !== undefined) killGroup(pid, 'SIGKILL');
      cleanUp();
      resolve({ code, signal, cancelled, pid, stdout });
    });

    function cleanUp() {
      if (killTimer) clearTimeout(killTimer);
      command.signal?.removeEventListener('abort', onAbort);
      if (pid !== undefined) {
        liveGroups.delete(pid);
        releaseGroup(pid);
      }
    }
  });
}

function killGroup(group: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-group, signal);
  } catch {
    // The group is gone already.
  }
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', killAllProcessGroups);
}
