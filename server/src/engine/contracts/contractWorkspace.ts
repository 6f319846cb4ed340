import type { FileFacts, ScannedDir } from '../workspace';

/** The folders and file facts the contracts are read from. */
export interface ContractWorkspace {
  dirOf(dir: string): ScannedDir | undefined;
  factsOf(file: string): FileFacts | undefined;
}
