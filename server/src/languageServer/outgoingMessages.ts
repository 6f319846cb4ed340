import { AbstractMessageWriter, type Message, type MessageWriter } from 'vscode-languageserver/node';

/**
 * Node IPC's message writer (as vscode-jsonrpc's), counting the messages not yet written out. A large one
 * (the graph at 3,000 units is megabytes) is written a socket buffer at a time, between the event loop's
 * turns: work done in slices waits while one is on its way, else each of its slices delays the rest of it.
 */
export class IpcMessageWriter extends AbstractMessageWriter implements MessageWriter {
  private writing = 0;
  private errorCount = 0;

  constructor(private readonly process: NodeJS.Process) {
    super();
    // The channel's end is the reader's to report (`IPCMessageReader`), as with vscode-jsonrpc's own writer.
    process.on('error', (error: Error) => this.fireError(error));
  }

  /** Whether a message is still being written out. */
  get busy(): boolean {
    return this.writing > 0;
  }

  write(message: Message): Promise<void> {
    if (!this.process.send) return Promise.reject(new Error('the server was not started with an IPC channel'));
    this.writing++;
    try {
      this.process.send(message, undefined, undefined, (error: Error | null) => {
        this.writing--;
        if (error) this.fireError(error, message, ++this.errorCount);
        else this.errorCount = 0;
      });
      return Promise.resolve();
    } catch (error) {
      this.writing--;
      this.fireError(error, message, ++this.errorCount);
      return Promise.reject(error);
    }
  }

  end(): void {}
}

let writer: { readonly busy: boolean } | undefined;

/** The writer whose messages `stillWriting` asks about (the connection's). */
export function watchOutgoing(watched: { readonly busy: boolean }): void {
  writer = watched;
}

/** Whether the server is still writing a message to the client. */
export function stillWriting(): boolean {
  return writer?.busy ?? false;
}
