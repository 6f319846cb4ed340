import path from 'node:path';
import { type FileRead, unknown, type Value } from '../evaluation';
import type { TerragruntContext } from './terragruntFunctions';
import {
  contextFor,
  EMPTY_SCOPE,
  EMPTY_TERRAGRUNT,
  evaluateIn,
  localsScope,
  notingSource,
  type ReadNotes,
  type SharedRead,
  type UnitSource,
} from './unitContext';
import { fileCallReads } from './unitReads';

/**
 * `read_terragrunt_config` in one unit's evaluation: a file's locals, inputs and attributes, evaluated with that
 * file as the configuration, once per unit. A file whose evaluation asked nothing of the unit (its folder, its
 * repository) is the same for every unit: with `UnitSource.configReads`, it is evaluated once for all of them.
 */
export class ConfigReader {
  private readonly values = new Map<string, SharedRead>();
  /** The files being read, innermost last, each with its notes. */
  private readonly reading = new Map<string, RecordedNotes>();

  constructor(
    private readonly files: UnitSource,
    private readonly unitDir: string,
    private readonly unit: ReadNotes,
  ) {}

  /** `read_terragrunt_config(file)` in one of the unit's own files. */
  read(file: string): Value {
    return this.readFor(file, this.unit);
  }

  /** The file's value; what reading it noted goes to `into` (the unit, or a file being read that reads it). */
  private readFor(file: string, into: ReadNotes): Value {
    const kept = this.values.get(file);
    if (kept) {
      // The unit has its notes already.
      if (into !== this.unit) kept.replay(into);
      return kept.value;
    }
    if (this.reading.has(file)) {
      // What a cycle gives depends on where it was entered: nothing read on the way is shared.
      for (const notes of this.reading.values()) notes.dependent = true;
      return unknown(`read_terragrunt_config: ${path.basename(file)} reads itself`);
    }
    const read = this.files.configReads?.get(file) ?? this.evaluated(file);
    read.replay(into);
    this.values.set(file, read);
    return read.value;
  }

  private evaluated(file: string): SharedRead {
    const notes = new RecordedNotes();
    this.reading.set(file, notes);
    notes.configRead(file);
    notes.fileRead({ target: { kind: 'file', path: file }, how: 'read_terragrunt_config()' }, true);
    const source = notingSource(this.files, notes);
    const facts = source.configOf(file) ?? EMPTY_TERRAGRUNT;
    const context = askingOfUnit(
      contextFor(source, file, this.unitDir, (candidate) => this.readFor(candidate, notes)),
      notes,
    );
    const scope = localsScope(facts, context, EMPTY_SCOPE, [], file);
    for (const found of fileCallReads(facts, (expr) => evaluateIn(context, expr, scope), file))
      notes.fileRead(found, false);
    const value: Record<string, Value> = { locals: scope.get('local') ?? {} };
    for (const attribute of facts.attributes) value[attribute.name] = evaluateIn(context, attribute, scope);
    value.inputs = evaluateIn(context, facts.inputs, scope);
    this.reading.delete(file);
    const read: SharedRead = { value, replay: (into) => notes.replay(into) };
    if (!notes.dependent) this.files.configReads?.set(file, read);
    return read;
  }
}

/** Notes kept in order, to be told again; `dependent` once the evaluation asked about the unit. */
class RecordedNotes implements ReadNotes {
  dependent = false;
  private readonly steps: ((into: ReadNotes) => void)[] = [];

  configRead(file: string): void {
    this.steps.push((into) => into.configRead(file));
  }

  lookedIn(dir: string): void {
    this.steps.push((into) => into.lookedIn(dir));
  }

  fileRead(found: FileRead, prefer: boolean): void {
    this.steps.push((into) => into.fileRead(found, prefer));
  }

  replay(into: ReadNotes): void {
    for (const step of this.steps) step(into);
    if (into instanceof RecordedNotes && this.dependent) into.dependent = true;
  }
}

/** `context`, noting in `notes` when its answers depend on the unit: its folder, its repository. */
function askingOfUnit(context: TerragruntContext, notes: RecordedNotes): TerragruntContext {
  return {
    ...context,
    get unitDir() {
      notes.dependent = true;
      return context.unitDir;
    },
    get repoRoot() {
      notes.dependent = true;
      return context.repoRoot;
    },
  };
}
