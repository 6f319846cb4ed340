import { readFileSync, statSync } from 'node:fs';

/**
 * The largest file Terrace reads: generated `.tf.json` files run to tens of megabytes (50 MB is read);
 * past this, a file is reported and left out rather than held in memory.
 */
export const MAX_FILE_BYTES = 128 * 1024 * 1024;

/**
 * The largest editor buffer analysed as it is typed: each edit parses the whole text (a 52 MB buffer took
 * 3 to 12 s an edit, and 2.4 GB); past this, the file counts as saved on disk.
 */
export const MAX_TYPED_CHARS = 8 * 1024 * 1024;

/**
 * A source file's text. Only regular files are read: a pipe named `*.tf` would block the scan until
 * something writes to it, and a link to a device (`/dev/zero`) would be read without end.
 */
export function readSourceFile(file: string): string {
  const stat = statSync(file);
  if (!stat.isFile()) throw new Error('not a regular file (a pipe, a device or a socket), so not read');
  if (stat.size > MAX_FILE_BYTES)
    throw new Error(
      `${Math.round(stat.size / 1024 / 1024)} MB, more than the ${MAX_FILE_BYTES / 1024 / 1024} MB Terrace reads, so not read`,
    );
  // Node's own decoding, in one call, is the fast path: it replaces what is not UTF-8 and keeps a byte order
  // mark, so a text with a replacement character is read again and decoded strictly.
  const text = readFileSync(file, 'utf8');
  if (!text.includes('\uFFFD')) return text.charCodeAt(0) === BYTE_ORDER_MARK ? text.slice(1) : text;
  return decodeSource(readFileSync(file));
}

const BYTE_ORDER_MARK = 0xfeff;

/** A file Terraform cannot read for its encoding: it reads UTF-8 only. */
export class EncodingError extends Error {}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** The text of a source file, which Terraform reads as UTF-8 (a byte order mark allowed). */
function decodeSource(bytes: Buffer): string {
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))
    throw new EncodingError('this file is saved as UTF-16; Terraform reads only UTF-8: save it as UTF-8');
  try {
    return UTF8.decode(bytes);
  } catch {
    throw new EncodingError('this file is not valid UTF-8, the only encoding Terraform reads: save it as UTF-8');
  }
}
