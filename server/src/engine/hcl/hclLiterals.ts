/** HCL's literal text read as values: numbers, and the escapes of quoted strings and heredocs. */

/** A numeric literal's value (decimal or `0x` hexadecimal); NaN when it is not a number. */
export function numberFromText(text: string): number {
  return /^0x/i.test(text) ? Number.parseInt(text.slice(2), 16) : Number(text);
}

/** HCL rejects a quoted string split over lines (tree-sitter accepts it); reported over the whole string. */
export const SPLIT_STRING_MESSAGE =
  'syntax error: quoted strings may not be split over multiple lines; use \\n or a heredoc';

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = { n: '\n', r: '\r', t: '\t', '"': '"', '\\': '\\' };

/** Decodes a quoted string's escapes: `\n \r \t \" \\ \uNNNN \UNNNNNNNN`, and `$${`/`%%{` to `${`/`%{`. */
export function decodeQuoted(raw: string): string {
  if (!raw.includes('\\') && !raw.includes('${') && !raw.includes('%{')) return raw;
  let out = '';
  for (let i = 0; i < raw.length; i++) {
    const ch = raw[i];
    if (ch === '\\' && i + 1 < raw.length) {
      const next = raw[i + 1];
      const simple = SIMPLE_ESCAPES[next];
      if (simple !== undefined) {
        out += simple;
        i++;
        continue;
      }
      const width = next === 'u' ? 4 : next === 'U' ? 8 : 0;
      const hex = raw.slice(i + 2, i + 2 + width);
      if (width > 0 && /^[0-9a-fA-F]+$/.test(hex) && hex.length === width) {
        out += String.fromCodePoint(Number.parseInt(hex, 16));
        i += 1 + width;
        continue;
      }
    }
    if ((ch === '$' || ch === '%') && raw[i + 1] === ch && raw[i + 2] === '{') {
      out += ch;
      i++;
      continue;
    }
    out += ch;
  }
  return out;
}

/** Heredocs keep backslashes; only `$${` and `%%{` are escapes there. */
export function decodeHeredoc(raw: string): string {
  return raw.replace(/([$%])\1\{/g, '$1{');
}
