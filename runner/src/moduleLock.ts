import {
  closeSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { LockOwner } from '../../server/src/engine/run';
import { lockFile } from './runLayout';

/**
 * One terraform run per module at a time, in this window, another window or a shell (burrito's
 * lease): a lock file created exclusively (`wx`) holding its owner. A lock is stale, and taken
 * over, when its owner process on this machine is gone and so is every process of the terraform
 * group it recorded, or when it is older than `staleAfterMs` (an owner on another machine sharing
 * the folder cannot be checked).
 */

export class ModuleBusyError extends Error {
  constructor(
    readonly id: string,
    readonly owner: LockOwner | undefined,
  ) {
    super(owner ? `busy: ${id} ${busyWith(owner)}` : `busy: ${id} is locked by another run`);
  }
}

/** Who holds a module: the run, or what it left at work when it was killed. */
function busyWith(owner: LockOwner): string {
  const where = owner.hostname === os.hostname() ? '' : ` on ${owner.hostname}`;
  if (where === '' && owner.group !== undefined && !processAlive(owner.pid) && groupAlive(owner.group))
    return `is still being run by terraform (process group ${owner.group}), left by ${owner.command} (pid ${owner.pid}, gone, since ${owner.since})`;
  return `is being run by ${owner.command} (pid ${owner.pid}${where}, since ${owner.since})`;
}

export interface ModuleLock {
  file: string;
  /** Records the process group of the terraform now at work on the module: the lock holds while it lives. */
  working(group: number): void;
  release(): void;
}

export interface LockOptions {
  command: string;
  /** How long to wait for a busy module before giving up; 0 (the default) gives up at once. */
  waitMs?: number;
  signal?: AbortSignal;
  /** A lock older than this is stale whoever holds it; 12 hours by default. */
  staleAfterMs?: number;
}

const POLL_MS = 250;
const DEFAULT_STALE_MS = 12 * 3600_000;
/** A lock file without a readable owner this old is garbage, not a writer at work. */
const HALF_WRITTEN_MS = 2_000;

/** Takes the module's lock, waiting up to `waitMs` for a busy one; throws `ModuleBusyError` when it stays busy. */
export async function acquireModuleLock(root: string, id: string, options: LockOptions): Promise<ModuleLock> {
  const file = lockFile(root, id);
  mkdirSync(path.dirname(file), { recursive: true });
  const deadline = Date.now() + (options.waitMs ?? 0);
  for (;;) {
    const taken = tryTake(file, options.command);
    if (taken) return taken;
    const found = readLock(file);
    if (found.kind === 'missing') continue;
    if (found.kind === 'unreadable' ? found.ageMs > HALF_WRITTEN_MS : isStale(found.owner, options.staleAfterMs)) {
      breakLock(file);
      continue;
    }
    if (Date.now() >= deadline || options.signal?.aborted)
      throw new ModuleBusyError(id, found.kind === 'owner' ? found.owner : undefined);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** The owner of a module's lock while it is held (not stale), for the run states. */
export function lockOwner(root: string, id: string): LockOwner | undefined {
  const found = readLock(lockFile(root, id));
  return found.kind === 'owner' && !isStale(found.owner) ? found.owner : undefined;
}

function tryTake(file: string, command: string): ModuleLock | undefined {
  let fd: number;
  try {
    fd = openSync(file, 'wx');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return undefined;
    throw error;
  }
  const owner: LockOwner = { pid: process.pid, hostname: os.hostname(), command, since: new Date().toISOString() };
  writeSync(fd, `${JSON.stringify(owner)}\n`);
  closeSync(fd);
  let released = false;
  const ours = () => {
    const current = readLock(file);
    return current.kind === 'owner' && current.owner.pid === owner.pid && current.owner.since === owner.since;
  };
  return {
    file,
    working: (group) => {
      // Written in place (same owner, one more field): the file is never missing meanwhile.
      if (!released && ours()) writeFileSync(file, `${JSON.stringify({ ...owner, group })}\n`);
    },
    release: () => {
      if (released) return;
      released = true;
      // Only our own lock: a stale-lock breaker may have replaced it meanwhile.
      if (ours()) rmSync(file, { force: true });
    },
  };
}

type LockRead = { kind: 'missing' } | { kind: 'unreadable'; ageMs: number } | { kind: 'owner'; owner: LockOwner };

function readLock(file: string): LockRead {
  try {
    const owner = JSON.parse(readFileSync(file, 'utf8')) as LockOwner;
    if (typeof owner.pid === 'number' && typeof owner.since === 'string') return { kind: 'owner', owner };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing' };
  }
  // Half-written (its writer is between open and write) or garbage: stale once it is not new.
  try {
    return { kind: 'unreadable', ageMs: Date.now() - statSync(file).mtimeMs };
  } catch {
    return { kind: 'missing' };
  }
}

function isStale(owner: LockOwner, staleAfterMs = DEFAULT_STALE_MS): boolean {
  const age = Date.now() - Date.parse(owner.since);
  if (!(age < staleAfterMs)) return true;
  if (owner.hostname !== os.hostname()) return false;
  // A run killed outright may leave its terraform at work (and holding the state's lock) for a while.
  return !processAlive(owner.pid) && !(owner.group !== undefined && groupAlive(owner.group));
}

/**
 * Whether a process of the group lives. Killed processes whose parent died wait as zombies until
 * the system reaps them, still in their group: on Linux those do not count.
 */
function groupAlive(group: number): boolean {
  if (!processAlive(-group)) return false;
  if (process.platform !== 'linux') return true;
  try {
    return readdirSync('/proc').some((name) => /^\d+$/.test(name) && livingMember(name, group));
  } catch {
    return true;
  }
}

function livingMember(pid: string, group: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // After the command's closing parenthesis: state, parent, process group.
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(pgrp) === group && state !== 'Z';
  } catch {
    return false;
  }
}

/** Whether a process (or, given `-group`, any process of a group) lives; one of another user's counts. */
function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes a stale lock; renaming first means that of two processes breaking it at once, one does. */
function breakLock(file: string): void {
  const aside = `${file}.stale-${process.pid}-${Date.now()}`;
  try {
    renameSync(file, aside);
    rmSync(aside, { force: true });
  } catch {
    // Someone else broke (or released) it first.
  }
}
