import { fileURLToPath } from 'node:url';
import { URI } from 'vscode-uri';

/**
 * The file a URI names; none for any other scheme (`untitled:`, a diff's, a notebook cell's, a virtual
 * workspace's): Terrace reads folders on disk, and what is not on disk is no module of theirs.
 */
export function uriToPath(uri: string): string | undefined {
  if (!uri.startsWith('file:')) return undefined;
  try {
    return fileURLToPath(uri);
  } catch {
    // A file: URI with a host or an encoded separator (`file://server/x` on Linux) names no local file.
    return undefined;
  }
}

/**
 * A file's URI as VS Code writes it (`+` as `%2B`, a drive letter in lower case), not as Node's
 * `pathToFileURL` does: the client's open documents are known by that string, and a URI the server
 * sends is compared with VS Code's own.
 */
export function pathToUri(file: string): string {
  return URI.file(file).toString();
}
