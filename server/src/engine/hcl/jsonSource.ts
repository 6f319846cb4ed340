import { lineStarts, positionAt } from './lineIndex';
import type { Position, Range } from './position';

/** Where a JSON value or key is in its text: the offset of its first character and the offset after its last. */
export interface JsonSpan {
  start: number;
  end: number;
}

/**
 * The members of one JSON object in the order they are written, four offsets each (its key's start and end,
 * its value's), in one array: a generated file's object may hold hundreds of thousands.
 */
export class JsonMembers {
  private byKey: Map<string, number> | undefined;

  constructor(
    readonly source: JsonSource,
    private readonly offsets: readonly number[],
    /** How many keys `JSON.parse` kept: fewer than written when one is repeated. */
    private readonly kept: number,
  ) {}

  /**
   * Which member `key` is, looked for first at `hint`: `JSON.parse` lists keys in the order they are written
   * but for integer-like ones (first) and repeated ones (once, the last value kept). -1 when the object has none.
   */
  indexOf(key: string, hint: number): number {
    const o = this.offsets;
    const start = o[hint * 4];
    const unique = this.kept * 4 === o.length;
    if (
      unique &&
      start !== undefined &&
      o[hint * 4 + 1]! - start - 2 === key.length &&
      this.source.text.startsWith(key, start + 1)
    )
      return hint;
    return this.keys().get(key) ?? -1;
  }

  key(index: number): JsonSpan {
    return { start: this.offsets[index * 4]!, end: this.offsets[index * 4 + 1]! };
  }

  value(index: number): JsonSpan {
    return { start: this.offsets[index * 4 + 2]!, end: this.offsets[index * 4 + 3]! };
  }

  /** Each key's last member. */
  private keys(): Map<string, number> {
    if (!this.byKey) {
      this.byKey = new Map();
      for (let i = 0; i * 4 < this.offsets.length; i++) this.byKey.set(this.source.keyText(this.key(i)), i);
    }
    return this.byKey;
  }
}

/** A member of a JSON object: its key (quotes included) and its value. */
export interface JsonMember {
  key: JsonSpan;
  value: JsonSpan;
}

const QUOTE = 34;
const BACKSLASH = 92;

/**
 * The places of a JSON text's keys and values, for a text `JSON.parse` accepted (which gives the values but
 * no places): each object or array is scanned when asked for, so that what the caller never looks into (a
 * generated file's thousands of resources) is only skipped over, a string at a time.
 */
export class JsonSource {
  private starts: number[] | undefined;

  constructor(readonly text: string) {}

  /** The span of the top-level value. */
  root(): JsonSpan {
    const start = this.skipSpace(0);
    return { start, end: this.valueEnd(start) };
  }

  /** The members of the object at `span`, of which `JSON.parse` kept `kept`. */
  members(span: JsonSpan, kept: number): JsonMembers {
    const text = this.text;
    const offsets: number[] = [];
    let i = this.skipSpace(span.start + 1);
    while (text.charCodeAt(i) === QUOTE) {
      const keyEnd = this.stringEnd(i);
      const valueStart = this.skipSpace(this.skipSpace(keyEnd) + 1);
      const valueEnd = this.valueEnd(valueStart);
      offsets.push(i, keyEnd, valueStart, valueEnd);
      i = this.skipSpace(valueEnd);
      if (text[i] !== ',') break;
      i = this.skipSpace(i + 1);
    }
    return new JsonMembers(this, offsets, kept);
  }

  /** The items of the array at `span`. */
  items(span: JsonSpan): JsonSpan[] {
    const text = this.text;
    const items: JsonSpan[] = [];
    let i = this.skipSpace(span.start + 1);
    while (i < span.end - 1) {
      const item = { start: i, end: this.valueEnd(i) };
      items.push(item);
      i = this.skipSpace(item.end);
      if (text[i] !== ',') break;
      i = this.skipSpace(i + 1);
    }
    return items;
  }

  range(span: JsonSpan): Range {
    return { start: this.position(span.start), end: this.position(span.end) };
  }

  position(offset: number): Position {
    this.starts ??= lineStarts(this.text);
    return positionAt(this.starts, offset);
  }

  /**
   * The place in the text of each character of the string at `span` as `JSON.parse` decodes it: `\"`,
   * `\n`, `\u0041` are one character of the value, written with two or six. Offset `length` is the
   * closing quote's.
   */
  stringPlaces(span: JsonSpan): (decoded: number) => Position {
    const text = this.text;
    const from = span.start + 1;
    const to = span.end - 1;
    const escaped = text.indexOf('\\', from);
    if (escaped < 0 || escaped >= to) {
      // Nothing escaped, and a JSON string holds no line break: the value's offsets shifted.
      const start = this.position(from);
      return (decoded) => ({ line: start.line, character: start.character + decoded });
    }
    const places: number[] = [];
    for (let i = from; i < to; ) {
      places.push(i);
      i += text.charCodeAt(i) !== BACKSLASH ? 1 : text[i + 1] === 'u' ? 6 : 2;
    }
    places.push(to);
    const start = this.position(from);
    return (decoded) => ({
      line: start.line,
      character: start.character + (places[Math.min(decoded, places.length - 1)]! - from),
    });
  }

  /** A key's text as `JSON.parse` decodes it. */
  keyText(key: JsonSpan): string {
    const raw = this.text.slice(key.start + 1, key.end - 1);
    return raw.includes('\\') ? (JSON.parse(this.text.slice(key.start, key.end)) as string) : raw;
  }

  /** The end of the value starting at `start`: a string, an object or array with what it holds, or a number or word. */
  private valueEnd(start: number): number {
    const text = this.text;
    const c = text[start];
    if (c === '"') return this.stringEnd(start);
    if (c !== '{' && c !== '[') {
      let i = start;
      while (i < text.length && !',}] \t\n\r'.includes(text[i]!)) i++;
      return i;
    }
    let depth = 0;
    for (let i = start; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code === QUOTE) i = this.stringEnd(i) - 1;
      else if (code === 123 || code === 91) depth++;
      else if ((code === 125 || code === 93) && --depth === 0) return i + 1;
    }
    return text.length;
  }

  /** The offset after the closing quote of the string opening at `start`. */
  private stringEnd(start: number): number {
    const text = this.text;
    let at = start;
    for (;;) {
      at = text.indexOf('"', at + 1);
      if (at < 0) return text.length;
      let backslashes = 0;
      while (text.charCodeAt(at - 1 - backslashes) === BACKSLASH) backslashes++;
      if (backslashes % 2 === 0) return at + 1;
    }
  }

  private skipSpace(start: number): number {
    const text = this.text;
    let i = start;
    for (;;) {
      const c = text.charCodeAt(i);
      if (c !== 32 && c !== 9 && c !== 10 && c !== 13) return i;
      i++;
    }
  }
}
