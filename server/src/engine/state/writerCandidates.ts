import type { Template } from '../evaluation';

/** A writer's state as a template, for matching reads known only in part. */
export interface WriterTemplate {
  id: string;
  template: Template;
  /** Its literal texts, for the quick test before unifying (see `mayFit` in `writerIndex.ts`). */
  pieces: readonly string[];
  /** The template of the states it writes in workspaces other than default. */
  anyWorkspace: boolean;
}

/**
 * The writer templates that a read known as a whole can fit, found without trying every writer. Unifying
 * anchors both ends and a hole takes at least one character, so a template all text fits only the same text,
 * one that starts with text fits only a text with that prefix, one that ends with text only a text with that
 * suffix: such templates are found by the text itself, its prefixes or its suffixes. Only those with a hole at
 * both ends are tried for every read. Trying every writer against every read of a state nobody writes was
 * quadratic: 10,000 such reads took 50 s.
 */
export class WriterCandidates {
  private readonly whole = new Map<string, number[]>();
  private readonly byFirst = new Map<string, number[]>();
  private readonly byLast = new Map<string, number[]>();
  /** Templates with text at both ends: by their first text, then by their last. */
  private readonly byBoth = new Map<string, Map<string, number[]>>();
  /** Templates with a hole at both ends: tried for every read. */
  private readonly loose: number[] = [];

  constructor(private readonly templates: readonly WriterTemplate[]) {
    templates.forEach(({ template }, index) => {
      const first = template[0];
      const last = template[template.length - 1];
      const startsText = typeof first === 'string';
      const endsText = typeof last === 'string';
      if (template.length === 1 && startsText) add(this.whole, first, index);
      else if (startsText && endsText) {
        const byLast = this.byBoth.get(first) ?? new Map<string, number[]>();
        this.byBoth.set(first, byLast);
        add(byLast, last, index);
      } else if (startsText) add(this.byFirst, first, index);
      else if (endsText) add(this.byLast, last, index);
      else this.loose.push(index);
    });
  }

  /** The templates that may fit `text`, in the order they were given. */
  forText(text: string): WriterTemplate[] {
    const found = [...this.loose, ...(this.whole.get(text) ?? [])];
    if (this.byFirst.size > 0 || this.byLast.size > 0)
      for (let cut = 1; cut < text.length; cut++)
        found.push(...(this.byFirst.get(text.slice(0, cut)) ?? []), ...(this.byLast.get(text.slice(cut)) ?? []));
    for (let cut = 1; cut < text.length; cut++) {
      const byLast = this.byBoth.get(text.slice(0, cut));
      if (!byLast) continue;
      for (let start = cut + 1; start < text.length; start++) found.push(...(byLast.get(text.slice(start)) ?? []));
    }
    return found.sort((a, b) => a - b).map((index) => this.templates[index]!);
  }
}

function add(map: Map<string, number[]>, key: string, index: number): void {
  const list = map.get(key);
  if (list) list.push(index);
  else map.set(key, [index]);
}
