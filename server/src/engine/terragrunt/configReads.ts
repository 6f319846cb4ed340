import path from 'node:path';
import { type ReadSet, unknown, type Value } from '../evaluation';
import { contextFor, EMPTY_SCOPE, EMPTY_TERRAGRUNT, evaluateIn, localsScope, type UnitSource } from './unitContext';
import { fileCallReads } from './unitReads';

/** `read_terragrunt_config`: a file's locals, inputs and attributes, evaluated with that file as the configuration; cached per unit. */
export class ConfigReader {
  private readonly values = new Map<string, Value>();
  private readonly reading = new Set<string>();

  constructor(
    private readonly source: UnitSource,
    private readonly unitDir: string,
    private readonly readFiles: Set<string>,
    private readonly fileReads: ReadSet,
  ) {}

  read(file: string): Value {
    const cached = this.values.get(file);
    if (cached !== undefined) return cached;
    if (this.reading.has(file)) return unknown(`read_terragrunt_config: ${path.basename(file)} reads itself`);
    this.reading.add(file);
    this.readFiles.add(file);
    this.fileReads.prefer({ target: { kind: 'file', path: file }, how: 'read_terragrunt_config()' });
    const facts = this.source.configOf(file) ?? EMPTY_TERRAGRUNT;
    const context = contextFor(this.source, file, this.unitDir, (candidate) => this.read(candidate));
    const scope = localsScope(facts, context, EMPTY_SCOPE, [], file);
    for (const found of fileCallReads(facts, (expr) => evaluateIn(context, expr, scope), file))
      this.fileReads.add(found);
    const value: Record<string, Value> = { locals: scope.get('local') ?? {} };
    for (const attribute of facts.attributes) value[attribute.name] = evaluateIn(context, attribute, scope);
    value.inputs = evaluateIn(context, facts.inputs, scope);
    this.reading.delete(file);
    this.values.set(file, value);
    return value;
  }
}
