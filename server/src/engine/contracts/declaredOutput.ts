import type { OutputDecl } from '../workspace';

/** An `output` block of a node's code. */
export interface DeclaredOutput extends OutputDecl {
  file: string;
}
