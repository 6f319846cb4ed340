/**
 * A string known only in part: literal text with *holes* where a value is known only at run time (a
 * variable without a default, the workspace Terraform runs in). A template built from
 * `"${var.stack}/search.tfstate"` keeps `/search.tfstate`, which is often enough to tell which module
 * writes a state (see state/addressTemplate.ts).
 */

/** A part of a string whose text is not known statically. */
export interface Hole {
  /** What it stands for, as written: `var.stack`, `terraform.workspace`, `coalesce(…)`, `bucket`. */
  readonly hole: string;
  /** Why it is not known, e.g. `var.stack has no default`. */
  readonly reasons: readonly string[];
  /**
   * One path segment at most (no `/`): a workspace name (Terraform refuses `/` in one) or a bucket;
   * other holes may span several segments (`var.prefix = "team/app"`).
   */
  readonly segment: boolean;
}

export type TemplatePart = string | Hole;
/** Literal text and holes, adjacent texts joined, no empty text: the one form templates are compared in. */
export type Template = readonly TemplatePart[];

export function isHole(part: TemplatePart): part is Hole {
  return typeof part !== 'string';
}

export function hole(name: string, reasons: readonly string[], segment = false): Hole {
  return { hole: name, reasons, segment };
}

/** The parts as a template: adjacent texts joined, empty texts dropped. */
export function template(...parts: readonly (TemplatePart | Template)[]): Template {
  const out: TemplatePart[] = [];
  for (const part of parts.flat()) {
    if (isHole(part)) out.push(part);
    else if (part !== '') {
      const last = out.length - 1;
      if (last >= 0 && !isHole(out[last]!)) out[last] = (out[last] as string) + part;
      else out.push(part);
    }
  }
  return out;
}

/** The text of a template without holes; undefined when it has one. */
export function literalText(parts: Template): string | undefined {
  return parts.some(isHole) ? undefined : parts.join('');
}

/** Its holes, each once by name. */
export function holesOf(parts: Template): Hole[] {
  const seen = new Map<string, Hole>();
  for (const part of parts) if (isHole(part) && !seen.has(part.hole)) seen.set(part.hole, part);
  return [...seen.values()];
}

/** As a user reads it: holes as `${…}`. */
export function showTemplate(parts: Template): string {
  return parts.map((part) => (isHole(part) ? `\${${part.hole}}` : part)).join('');
}
