import os from 'node:os';
import { MessageChannel, type MessagePort, receiveMessageOnPort, Worker } from 'node:worker_threads';
import { MAX_FILE_BYTES } from './sourceFile';

/** Below this many files, starting a thread costs more than the reads it takes over. */
const MIN_FILES = 2000;

/** How many files the thread reads ahead of the one being taken, at most: what waits in memory. */
const LEAD = 4000;

/** Every how many files taken a thread waiting is woken. */
const NOTIFY_EVERY = 256;

/** Files the thread reads before it posts them: small, so that the first texts come soon. */
const BATCH = 32;

/**
 * The thread's code, plain JavaScript (the engine runs bundled and from TypeScript sources alike).
 * It reads the files in order, skipping to the one being taken when it fell behind, and posts each
 * batch's texts; null for a file it leaves to `readSourceFile`: not a regular file, past the size limit,
 * a replacement character (not UTF-8, maybe) or a byte order mark, or an error.
 */
const READER = `
const { workerData } = require('node:worker_threads');
const { readFileSync, statSync } = require('node:fs');
const { files, taken, port, lead, batch, maxBytes } = workerData;
let first = 0;
let texts = [];
const flush = () => {
  if (texts.length > 0) port.postMessage({ first, texts });
  texts = [];
};
for (let i = 0; i < files.length; i++) {
  const next = Atomics.load(taken, 0);
  if (i < next) {
    flush();
    i = next;
    if (i >= files.length) break;
  }
  if (texts.length === 0) first = i;
  while (i - Atomics.load(taken, 0) > lead) {
    flush();
    first = i;
    Atomics.wait(taken, 0, Atomics.load(taken, 0), 100);
  }
  let text = null;
  try {
    const stat = statSync(files[i]);
    if (stat.isFile() && stat.size <= maxBytes) {
      const read = readFileSync(files[i], 'utf8');
      if (!read.includes('\\uFFFD') && read.charCodeAt(0) !== 0xfeff) text = read;
    }
  } catch {}
  texts.push(text);
  if (texts.length >= batch) flush();
}
flush();
port.close();
`;

/**
 * The texts of a workspace's files read ahead on a second thread while this one parses them: the reads
 * are a fifth of a cold load, and the second core was idle. This thread takes the files in order, each
 * from the other if it has read it, else reading it itself (`readSourceFile`), so that the answers are the
 * same and nothing waits: the first files, while the thread starts, and any the thread left.
 */
export class ReadAhead {
  private readonly texts: (string | null | undefined)[] = [];
  private received = 0;

  private constructor(
    private readonly worker: Worker,
    private readonly port: MessagePort,
    private readonly taken: Int32Array,
  ) {}

  /** Started for a list of files long enough to gain from it, on a machine of two cores or more. */
  static start(files: readonly string[]): ReadAhead | undefined {
    if (files.length < MIN_FILES || os.availableParallelism() < 2) return undefined;
    try {
      const taken = new Int32Array(new SharedArrayBuffer(4));
      const { port1, port2 } = new MessageChannel();
      const worker = new Worker(READER, {
        eval: true,
        workerData: { files, taken, port: port2, lead: LEAD, batch: BATCH, maxBytes: MAX_FILE_BYTES },
        transferList: [port2],
      });
      // A thread that fails leaves its files to this one: nothing to report.
      worker.on('error', () => {});
      worker.unref();
      return new ReadAhead(worker, port1, taken);
    } catch {
      return undefined;
    }
  }

  /** The text of the `index`th file when the thread has read it; from then on it reads only the files after it. */
  take(index: number): string | undefined {
    Atomics.store(this.taken, 0, index + 1);
    // A thread waiting, a lead ahead, is woken now and then; it looks again on its own after a while.
    if (index % NOTIFY_EVERY === 0) Atomics.notify(this.taken, 0);
    while (this.received <= index) {
      const message = receiveMessageOnPort(this.port)?.message as
        | { first: number; texts: (string | null)[] }
        | undefined;
      if (!message) break;
      message.texts.forEach((text, n) => {
        if (message.first + n >= index) this.texts[message.first + n] = text;
      });
      this.received = message.first + message.texts.length;
    }
    const text = this.texts[index];
    this.texts[index] = undefined;
    return text ?? undefined;
  }

  /** The thread is no longer needed: stopped, with what it read and did not give. */
  stop(): void {
    Atomics.store(this.taken, 0, 2 ** 31 - 1);
    Atomics.notify(this.taken, 0);
    this.port.close();
    void this.worker.terminate();
    this.texts.length = 0;
  }
}
