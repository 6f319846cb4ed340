import {
  callRead,
  type EvalScope,
  evaluate,
  type FileRead,
  isUnknown,
  pathTarget,
  ReadSet,
  type ReadTarget,
  type Value,
} from '../evaluation';
import type { FileInput } from './evaluatedModule';
import type { FileArgument } from './fileFacts';

/**
 * The files one module's evaluation finds its plan reads beside its own folder's: its local child modules'
 * folders, and what the file functions of its code and theirs name. A read found twice (a module called
 * in several instances) is kept once, with where it was found first.
 */
export class ModuleReads extends ReadSet {
  /** `known`: what the module's kind knows it reads, first. */
  constructor(known: readonly FileRead[] = []) {
    super();
    for (const read of known) this.add(read);
  }

  /** A local child module's folder, called as `how` (`module.vpc`) at `at`. */
  folder(dir: string, how: string, at: FileRead['at']): void {
    this.add({ target: { kind: 'folder', dir, files: 'code' }, how, ...(at ? { at } : {}) });
  }

  /**
   * The calls of file functions in `files`, their arguments evaluated in `scope`, relative paths taken from
   * `cwd`: Terraform reads them from the folder it runs in, even in a child module.
   */
  calls(files: readonly FileInput[], scope: EvalScope, cwd: string): void {
    for (const { file, facts } of files) {
      for (const call of facts.fileCalls) {
        const read = callRead(call, (arg) => evaluate(arg, scope), cwd, file);
        if (read) this.add(read);
      }
      for (const argument of facts.fileArguments) {
        const at = { file, line: argument.range.start.line + 1 };
        for (const target of argumentTargets(argument, evaluate(argument.expr, scope), cwd))
          this.add({ target, how: argument.block, at });
      }
    }
  }
}

/** What a data source's argument names: a file, every file below a folder, or the files a command is given. */
function argumentTargets(argument: FileArgument, value: Value, cwd: string): ReadTarget[] {
  if (argument.reads === 'program') {
    // The command and its arguments: those that are paths (`${path.module}/lookup.sh`) are read.
    const items = Array.isArray(value) ? value : [];
    return items.flatMap((item) => {
      const text =
        typeof item === 'string'
          ? item
          : isUnknown(item)
            ? item.text?.find((part) => typeof part === 'string')
            : undefined;
      const target = typeof text === 'string' && text.includes('/') ? pathTarget(item, cwd) : undefined;
      return target ? [target] : [];
    });
  }
  const target = pathTarget(value, cwd);
  if (!target || argument.reads === 'file') return target ? [target] : [];
  // A folder: every file below it.
  if (target.kind === 'pattern') return [{ ...target, pattern: `${target.pattern}(?:/.*)?` }];
  return target.kind === 'file'
    ? [{ kind: 'pattern', dir: target.path, pattern: '.*', shown: `${target.path}/**` }]
    : [];
}
