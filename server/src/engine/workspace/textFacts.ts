import path from 'node:path';
import { FILE_FUNCTIONS } from '../evaluation';
import { type HclDocument, parseHcl, salvageBlocks, tfJsonDocument } from '../hcl';
import { stackFileFacts, stackFileKind } from '../stacks';
import { terragruntFileFacts, UNIT_FILE } from '../terragrunt';
import {
  EMPTY_FACTS,
  type FileFacts,
  factsFromDocument,
  keepBody,
  mayCallFileFunctions,
  mayHaveFacts,
} from './fileFacts';
import { generateOutputDeclarations } from './generatedOutputs';
import { nestedBackendOwner } from './nestedBackendFiles';
import { OUTPUT_READ_ROOTS, outputReferences } from './outputFacts';
import { fileRole } from './workspaceScan';

/**
 * The facts of a file's text, by what the file is: `.tf.json`, a Stack's file, a `.hcl` file, a `.tf`
 * (or `.tofu`) file. `whole`: parse even a `.tf` file the fast path would skim (none of the words the facts come
 * from: no facts, syntax unchecked), as for one file changed on disk or an editor's buffer.
 */
export function factsOfText(
  file: string,
  text: string,
  backendMatchers: readonly ((name: string) => boolean)[],
  whole = false,
): FileFacts {
  if (file.endsWith('.json')) return factsFromDocument(tfJsonDocument(text, { keepBody }));
  if (stackFileKind(file) !== undefined) return stackFacts(file, text);
  if (file.endsWith('.hcl')) return hclFacts(file, text, backendMatchers);
  if (!mayHaveFacts(text) && !isAttributeFile(file)) return whole ? syntaxOnlyFacts(text) : EMPTY_FACTS;
  const calls = mayCallFileFunctions(text);
  const options = { keepBody, watchRoots: calls ? WATCHED_WITH_FILE_CALLS : OUTPUT_READ_ROOTS };
  const document = parseHcl(text, options);
  // A syntax error must not take the blocks after it along: the module keeps what still parses.
  return factsFromDocument(document.errors.length > 0 ? salvageBlocks(text, document, options) : document, true, calls);
}

/** What skipped bodies keep in a file that calls file functions: the reads of outputs, and those calls. */
const WATCHED_WITH_FILE_CALLS: ReadonlySet<string> = new Set([...OUTPUT_READ_ROOTS, ...FILE_FUNCTIONS]);

/**
 * A `.hcl` file: a backend configuration file (its attributes), a Terragrunt configuration, or
 * both as far as the analysis knows. Syntax errors are reported for backend files and
 * `terragrunt.hcl` only: other `.hcl` files (Packer, Vault policies, HCL1) may not be Terragrunt's.
 */
function hclFacts(file: string, text: string, backendMatchers: readonly ((name: string) => boolean)[]): FileFacts {
  const document = parseHcl(text);
  const kept: HclDocument = document.errors.length > 0 ? salvageBlocks(text, document, {}) : document;
  const backendFile =
    nestedBackendOwner(file) !== undefined || fileRole(path.basename(file), backendMatchers) === 'backendFiles';
  const reported = backendFile || path.basename(file) === UNIT_FILE;
  const terragrunt = terragruntFileFacts(kept);
  const generateOutputs = generateOutputDeclarations(text, terragrunt);
  return {
    ...factsFromDocument(kept, false),
    terragrunt,
    ...(generateOutputs.length > 0 ? { generateOutputs } : {}),
    syntaxErrors: reported ? document.errors : [],
  };
}

function isAttributeFile(file: string): boolean {
  return !file.endsWith('.tf') && !file.endsWith('.tofu');
}

/** A Terraform Stack's file: what it says, and its syntax errors (the blocks that still parse are kept). */
function stackFacts(file: string, text: string): FileFacts {
  const document = parseHcl(text);
  const kept: HclDocument = document.errors.length > 0 ? salvageBlocks(text, document, {}) : document;
  return {
    ...EMPTY_FACTS,
    stack: stackFileFacts(kept, stackFileKind(file)!),
    outputReferences: outputReferences(kept.body),
    syntaxErrors: document.errors,
  };
}

/**
 * The facts of a file the fast path skims (none of the words facts come from), parsed for its syntax
 * errors only: no block's body is kept. A new object, not `EMPTY_FACTS`: this one was checked.
 */
export function syntaxOnlyFacts(text: string): FileFacts {
  return { ...EMPTY_FACTS, syntaxErrors: parseHcl(text, { keepBody: () => false }).errors };
}
