import type { TextMeasure } from '../../webview/src/textFitter';

/**
 * A text's width in the panel's fonts, estimated where no page can measure it (the extension host
 * lays out a panel's first views ahead of its page, `openingViews.ts`): each character at a width
 * of its kind, on the wide side of the sans-serif faces VS Code's webviews draw in, so that the
 * estimate seldom falls short of the page's measure. A layout made with a width the page's measure
 * exceeds is not used (`LayoutService`).
 */
export const estimatedText: TextMeasure = {
  measure(text: string, font: string): number {
    const size = Number(/(\d+(?:\.\d+)?)px/.exec(font)?.[1] ?? 13);
    const bold = /^(?:bold|[6-9]00)\b/.test(font);
    let ems = 0;
    for (const char of text) ems += charEms(char);
    return ems * size * (bold ? BOLD : 1);
  },
};

/**
 * How much wider a bold (600) title is: DejaVu Sans Bold, which Chromium takes for `system-ui` on Linux, draws
 * long lowercase titles up to 2 % wider than 1.06 times these widths (281 px against 276 for a title of 37
 * characters), and a layout made for narrower nodes than the page measures is not used.
 */
const BOLD = 1.1;

const NARROW = new Set("ijlftrI.,:;'!|()[]{} ");
const WIDE = new Set('mwMW@%…');

/** A character's advance in ems, about the widest of the common faces' (DejaVu Sans, Segoe UI, SF). */
function charEms(char: string): number {
  if (NARROW.has(char)) return 0.36;
  if (WIDE.has(char)) return 1.0;
  if (char === '/' || char === '-') return 0.4;
  if (/[A-Z]/.test(char)) return 0.74;
  if (/[a-z0-9_]/.test(char)) return 0.64;
  return 1.0;
}
