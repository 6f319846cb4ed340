import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Layout } from '../../webview/src/layoutGraph';

/** The layouts a workspace keeps on disk, the most recently used first, and the most bytes they take. */
const STORED_LAYOUTS = 8;
const STORED_BYTES = 4 * 1024 * 1024;
/** A new layout is written after this quiet time, so that a burst of them writes once. */
const WRITE_DELAY_MS = 1000;

interface StoredLayouts {
  /** What made them: the layout code (a hash of its bundle); any other code makes them stale. */
  madeBy: string;
  /** By the hash of their layout key (`layoutKey`), most recently used first. */
  layouts: [string, Layout][];
}

/**
 * The graph panel's layouts kept between windows, in the workspace's storage: a window opened on a graph
 * whose view is unchanged draws its first view from the layout elkjs made in an earlier window, instead of
 * waiting for elkjs in a thread just started. A file that cannot be read or was written by other layout
 * code is ignored (and replaced by the next write).
 */
export class LayoutStore {
  private stored: Promise<Map<string, Layout>> | undefined;
  private code: Promise<string> | undefined;
  private timer: NodeJS.Timeout | undefined;
  /** A layout kept since the last write. */
  private unwritten = false;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly file: string,
    private readonly layoutCode: string,
  ) {}

  /** Reads the kept layouts (once), so that they are at hand when the first layout is asked for. */
  open(): Promise<Map<string, Layout>> {
    this.stored ??= this.read();
    return this.stored;
  }

  /** The kept layout of this layout key, if an earlier window made one. */
  async get(key: string): Promise<Layout | undefined> {
    const layouts = await this.open();
    const hash = hashOf(key);
    const layout = layouts.get(hash);
    if (layout) {
      layouts.delete(hash);
      layouts.set(hash, layout);
    }
    return layout;
  }

  /** Keeps a new layout for the next window; written once layouts stop coming for a moment. */
  async put(key: string, layout: Layout): Promise<void> {
    const layouts = await this.open();
    layouts.set(hashOf(key), layout);
    this.unwritten = true;
    if (layouts.size > STORED_LAYOUTS) layouts.delete(layouts.keys().next().value!);
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.flush(), WRITE_DELAY_MS);
    this.timer.unref();
  }

  /** Writes a layout kept since the last write now (what a pending write would), and resolves once it is on disk. */
  async flush(): Promise<void> {
    clearTimeout(this.timer);
    if (!this.unwritten) return this.writing;
    this.unwritten = false;
    const layouts = await this.open();
    this.writing = this.writing.then(() => this.write(layouts)).catch(() => undefined);
    return this.writing;
  }

  private async read(): Promise<Map<string, Layout>> {
    const madeBy = await this.madeBy();
    try {
      const stored = JSON.parse(await readFile(this.file, 'utf8')) as StoredLayouts;
      if (stored.madeBy !== madeBy || !Array.isArray(stored.layouts)) return new Map();
      // Least recently used first in the map, as it deletes from the front.
      return new Map(stored.layouts.reverse());
    } catch {
      return new Map();
    }
  }

  private async write(layouts: Map<string, Layout>): Promise<void> {
    // Each entry as JSON once: its size decides whether it is kept, and the file is made of them.
    const kept: string[] = [];
    let bytes = 0;
    for (const entry of [...layouts].reverse()) {
      const json = JSON.stringify(entry);
      if (kept.length === STORED_LAYOUTS || bytes + json.length > STORED_BYTES) break;
      kept.push(json);
      bytes += json.length;
    }
    const madeBy: StoredLayouts['madeBy'] = await this.madeBy();
    await mkdir(path.dirname(this.file), { recursive: true });
    // Written whole then renamed: a window that reads it meanwhile gets the old file or the new one.
    const partial = `${this.file}.${process.pid}.partial`;
    await writeFile(partial, `{"madeBy":${JSON.stringify(madeBy)},"layouts":[${kept.join(',')}]}`);
    await rename(partial, this.file);
  }

  private madeBy(): Promise<string> {
    this.code ??= readFile(this.layoutCode).then(
      (code) => hashOf(code),
      () => '',
    );
    return this.code;
  }
}

function hashOf(text: string | Buffer): string {
  return createHash('sha256').update(text).digest('hex');
}
