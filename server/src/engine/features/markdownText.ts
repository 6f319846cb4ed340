/**
 * Text that files say (folder names, block labels, addresses, values, messages) put into Markdown as text,
 * never as markup: a repository can name a folder `[x](command:…)` or `![](https://…)`, or put a backtick
 * in a key. CommonMark's rules: a backslash escapes any ASCII punctuation; a code span's fence is a run of
 * backticks that its content does not hold.
 */

/**
 * Characters that make inline markup (emphasis, code, links, images, HTML and autolinks, entities,
 * strikethrough, tables, icons); `>` only quotes at a line's start, which `oneLine` leaves none of.
 * Parentheses too: marked, which renders VS Code's hovers, still reads `\](` inside a link's text as the
 * link's end.
 */
const INLINE_MARKUP = /[\\`*[\]()<&~|$]/g;

/**
 * `text` as inline Markdown text: markup characters escaped, line breaks (which could start a heading or a
 * list) made spaces. An underscore between two letters or digits stays as it is: it cannot start or end
 * emphasis there, and `terraform_remote_state` reads better without backslashes.
 */
export function markdownText(text: string): string {
  return oneLine(text)
    .replace(INLINE_MARKUP, (char) => `\\${char}`)
    .replace(/_/g, (char, at: number, all: string) =>
      /[\p{L}\p{N}]/u.test(all[at - 1] ?? '') && /[\p{L}\p{N}]/u.test(all[at + 1] ?? '') ? char : `\\${char}`,
    );
}

/** `text` as a code span, whatever backticks it holds. */
export function markdownCode(text: string): string {
  const flat = oneLine(text);
  const runs = flat.match(/`+/g) ?? [];
  let fence = 1;
  while (runs.some((run) => run.length === fence)) fence++;
  const ticks = '`'.repeat(fence);
  // A span that starts or ends with a backtick (or a space) needs a space on each side, which CommonMark strips.
  const pad = /^[` ]|[` ]$/.test(flat) && flat.trim() !== '' ? ' ' : '';
  return `${ticks}${pad}${flat}${ticks}`;
}

/**
 * A message the engine wrote for plain text (a reason, a problem) that quotes what files say between
 * backticks: each quoted part a code span, the rest text. A backtick inside a quoted part splits it
 * elsewhere than meant, but every piece is still text or a code span: never markup.
 */
export function markdownMessage(message: string): string {
  return message
    .split(/`([^`\r\n]*)`/)
    .map((piece, index) => (index % 2 === 1 ? markdownCode(piece) : markdownText(piece)))
    .join('');
}

/** Line breaks made spaces: in a hover's line, one could start a heading, a list or a quote. */
function oneLine(text: string): string {
  return text.replace(/\r\n?|\n/g, ' ');
}

/** A link to `url` (a `file:` URL the engine made) whose text is `text`. */
export function markdownLink(text: string, url: string): string {
  // Parentheses are the only characters of a file URL that end a link's destination.
  return `[${markdownText(text)}](${url.replace(/\(/g, '%28').replace(/\)/g, '%29')})`;
}
