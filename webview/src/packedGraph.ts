import type {
  PackedColumn,
  PackedOutputs,
  PackedPanelModel,
  PackedRows,
  PackedStrings,
  PanelModel,
} from '../../server/src/protocol';

/**
 * The panel's graph as the host posts it: its modules and edges by column, not as objects (the keys of
 * 10,000 edges were half of the message), strings that repeat (kinds, match kinds, files, outputs) named
 * by their index in one table (a column of few of them, one character a row), the table front-coded (the
 * modules' ids share their folders), small numbers a character each, and each edge's and level's modules by
 * their index in `modules`. At 3,000 units the message is 0.24 MB where the objects were 2.7 MB (11,024 units:
 * 0.51 MB): in VS Code for the web it crosses a websocket and then the webview's frame, at 0.2-0.3 ms a
 * kilobyte on a busy machine.
 */
export function packGraph(graph: PanelModel): PackedPanelModel {
  const index = new Map(graph.modules.map((module, at) => [module.id, at]));
  const at = (id: string): number => {
    const found = index.get(id);
    if (found === undefined) throw new Error(`an edge or level names ${id}, which is not among the graph's modules`);
    return found;
  };
  const strings = new StringTable();
  const { modules, edges, levels, ...rest } = graph;
  return {
    ...rest,
    modules: packRows(modules, strings),
    edges: packRows(
      edges.map((edge) => ({ ...edge, from: at(edge.from), to: at(edge.to) })),
      strings,
    ),
    levels: levels.map((level) => level.map(at)),
    strings: frontCoded(strings.list),
  };
}

/** The graph as the webview draws it: its modules and edges as objects again, each edge's modules by their ids. */
export function unpackGraph(graph: PackedPanelModel): PanelModel {
  const { modules: packedModules, edges: packedEdges, levels, strings: packedStrings, ...rest } = graph;
  const strings = frontDecoded(packedStrings);
  const modules = unpackRows<PanelModel['modules'][number]>(packedModules, strings);
  const ids = modules.map((module) => module.id);
  const edges = unpackRows<Omit<PanelModel['edges'][number], 'from' | 'to'> & { from: number; to: number }>(
    packedEdges,
    strings,
  ).map((edge) => ({ ...edge, from: ids[edge.from]!, to: ids[edge.to]! }));
  return { ...rest, modules, edges, levels: levels.map((level) => level.map((at) => ids[at]!)) };
}

/** The outputs read along each edge, as the host posts them when they come after the graph. */
export function packOutputs(lists: readonly (readonly string[])[]): PackedOutputs {
  const strings = new StringTable();
  return { lists: lists.map((names) => names.map((name) => strings.at(name))), strings: strings.list };
}

export function unpackOutputs(packed: PackedOutputs): string[][] {
  return packed.lists.map((names) => names.map((at) => packed.strings[at]!));
}

/** Each string as the length of what it shares with the one before, and the rest (`PackedStrings`). */
function frontCoded(list: readonly string[]): PackedStrings {
  const prefixes: number[] = [];
  const suffixes: string[] = [];
  let before = '';
  for (const text of list) {
    const limit = Math.min(before.length, text.length);
    let shared = 0;
    while (shared < limit && before.charCodeAt(shared) === text.charCodeAt(shared)) shared++;
    prefixes.push(shared);
    suffixes.push(text.slice(shared));
    before = text;
  }
  return { prefixes, suffixes };
}

function frontDecoded(packed: PackedStrings): string[] {
  const list: string[] = [];
  let before = '';
  packed.suffixes.forEach((suffix, n) => {
    before = before.slice(0, packed.prefixes[n]) + suffix;
    list.push(before);
  });
  return list;
}

/** Strings by their index, each once. */
class StringTable {
  readonly list: string[] = [];
  private readonly indexOf = new Map<string, number>();

  at(text: string): number {
    let found = this.indexOf.get(text);
    if (found === undefined) {
      found = this.list.length;
      this.list.push(text);
      this.indexOf.set(text, found);
    }
    return found;
  }
}

/**
 * Objects as columns, one per key, in the order the keys first come, each holding the values of the rows
 * that have the key: strings (or nulls) as indexes in the table (-1: null), or, when a column has few of
 * them, each as one character (`codes`), string lists as lists of indexes, booleans as a string of 0s and
 * 1s, objects as rows of their own, any other value as it is. A key some rows lack (or hold undefined)
 * lists the rows it is in, or those it is not in, whichever is shorter: absent stays absent.
 */
function packRows(rows: readonly object[], strings: StringTable): PackedRows {
  const keys: string[] = [];
  const seen = new Set<string>();
  for (const row of rows)
    for (const key of Object.keys(row))
      if (!seen.has(key)) {
        seen.add(key);
        keys.push(key);
      }
  const columns: Record<string, PackedColumn> = {};
  for (const key of keys) {
    const values: unknown[] = [];
    const present: number[] = [];
    const absent: number[] = [];
    rows.forEach((row, n) => {
      // An undefined value is absent, as JSON has it.
      const value = (row as Record<string, unknown>)[key];
      if (value !== undefined) {
        present.push(n);
        values.push(value);
      } else absent.push(n);
    });
    const which = absent.length === 0 ? {} : present.length <= absent.length ? { present } : { absent };
    columns[key] = { ...packColumn(values, strings), ...which };
  }
  return { count: rows.length, columns };
}

/** A column of so few strings that each row's can be one character: its place among them, in base 36. */
const MOST_CODES = 36;

function packColumn(values: unknown[], strings: StringTable): PackedColumn {
  if (values.every((value) => typeof value === 'string' || value === null)) {
    const indexes = values.map((value) => (value === null ? -1 : strings.at(value as string)));
    const of = [...new Set(indexes)];
    if (of.length > MOST_CODES) {
      // The modules' ids: the table's first strings, in their order.
      const steps = wholeNumbers(indexes);
      return 'steps' in steps ? { stringSteps: steps.steps } : { strings: indexes };
    }
    const code = new Map(of.map((index, at) => [index, at.toString(MOST_CODES)]));
    return { codes: indexes.map((index) => code.get(index)).join(''), of };
  }
  if (values.every((value) => typeof value === 'boolean'))
    return { flags: values.map((value) => (value ? '1' : '0')).join('') };
  if (values.every((value) => Array.isArray(value) && value.every((item) => typeof item === 'string'))) {
    if (values.every((value) => (value as string[]).length === 0)) return { emptyLists: true };
    return { stringLists: values.map((value) => (value as string[]).map((item) => strings.at(item))) };
  }
  if (values.every((value) => Number.isInteger(value) && (value as number) >= 0))
    return wholeNumbers(values as number[]);
  // A module's segments, its run state: by column too (at 11,000 units the segments spelled out were 0.77 of 1.7 MB).
  if (values.every(isPlainObject)) return { objects: packRows(values as object[], strings) };
  return { values };
}

/** Whole numbers as digits or steps in base 36 when they fit, one character a row; else as they are. */
function wholeNumbers(values: readonly number[]): PackedColumn {
  if (values.every((value) => value < MOST_CODES))
    return { digits: values.map((value) => value.toString(MOST_CODES)).join('') };
  let before = 0;
  const steps: string[] = [];
  for (const value of values) {
    const step = value - before;
    if (step < 0 || step >= MOST_CODES) return { values: [...values] };
    steps.push(step.toString(MOST_CODES));
    before = value;
  }
  return { steps: steps.join('') };
}

/** The numbers of a `steps` column. */
function numbersOf(steps: string): number[] {
  let value = 0;
  return Array.from(steps, (step) => (value += Number.parseInt(step, MOST_CODES)));
}

function isPlainObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function unpackRows<T>(packed: PackedRows, strings: readonly string[]): T[] {
  const rows: Record<string, unknown>[] = Array.from({ length: packed.count }, () => ({}));
  for (const [key, column] of Object.entries(packed.columns)) {
    const value = columnValue(column, strings);
    const absent = column.absent && new Set(column.absent);
    const present = column.present ?? rows.keys();
    let next = 0;
    for (const n of present) if (!absent?.has(n)) rows[n]![key] = value(next++);
  }
  return rows as T[];
}

function columnValue(column: PackedColumn, strings: readonly string[]): (n: number) => unknown {
  if ('strings' in column) return (n) => (column.strings[n] === -1 ? null : strings[column.strings[n]!]);
  if ('stringSteps' in column) {
    const at = numbersOf(column.stringSteps);
    return (n) => strings[at[n]!];
  }
  if ('codes' in column)
    return (n) => {
      const at = column.of[Number.parseInt(column.codes[n]!, MOST_CODES)]!;
      return at === -1 ? null : strings[at];
    };
  if ('flags' in column) return (n) => column.flags[n] === '1';
  if ('digits' in column) return (n) => Number.parseInt(column.digits[n]!, MOST_CODES);
  if ('steps' in column) {
    const values = numbersOf(column.steps);
    return (n) => values[n];
  }
  if ('stringLists' in column) return (n) => column.stringLists[n]!.map((at) => strings[at]!);
  if ('emptyLists' in column) return () => [];
  if ('objects' in column) {
    const objects = unpackRows<object>(column.objects, strings);
    return (n) => objects[n];
  }
  return (n) => column.values[n];
}
