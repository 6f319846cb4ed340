import { fileURLToPath, pathToFileURL } from 'node:url';

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

export function pathToUri(file: string): string {
  return pathToFileURL(file).href;
}
