import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import type { ModuleRecord, RunStateFile } from '../../server/src/engine/run';
import { stateFile } from './runLayout';

/** `.terrace/state.json`: the records the run states are derived from (see the engine's run/runStateDerivation.ts). */
export function emptyRunState(): RunStateFile {
  return { version: 1, modules: {} };
}

/** The workspace's state file; empty when there is none (or it cannot be read). */
export function readRunState(root: string): RunStateFile {
  try {
    const parsed = JSON.parse(readFileSync(stateFile(root), 'utf8')) as RunStateFile;
    if (parsed && parsed.version === 1 && typeof parsed.modules === 'object') return parsed;
  } catch {
    // Absent or damaged: as if nothing ran yet.
  }
  return emptyRunState();
}

/** Whether any run has written a state file here (run states are shown only then). */
export function hasRunState(root: string): boolean {
  return existsSync(stateFile(root));
}

/**
 * Changes one module's record: read, change, write, under a lock file, so that parallel modules
 * of one run and runs in other windows do not lose each other's updates. Synchronous, so it is
 * also atomic within this process.
 */
export function updateModuleRecord(root: string, id: string, change: (record: ModuleRecord) => void): ModuleRecord {
  const file = stateFile(root);
  mkdirSync(path.dirname(file), { recursive: true });
  const release = lockStateFile(`${file}.lock`);
  try {
    const state = readRunState(root);
    const record = state.modules[id] ?? {};
    change(record);
    state.modules[id] = record;
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, `${JSON.stringify(state, null, 2)}\n`);
    renameSync(temporary, file);
    return record;
  } finally {
    release();
  }
}

/** A lock file around the read-change-write of state.json; a lock older than 10 s is broken. */
function lockStateFile(lock: string): () => void {
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      closeSync(openSync(lock, 'wx'));
      return () => rmSync(lock, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    let age = 0;
    try {
      age = Date.now() - statSync(lock).mtimeMs;
    } catch {
      continue;
    }
    if (age > 10_000 || Date.now() > deadline) {
      rmSync(lock, { force: true });
      continue;
    }
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
  }
}
