/**
 * Resolves once the messages that came while the server worked have been handed on: a request asked
 * meanwhile (the panel's graph, right after an edit) is answered before the rest of the work. The event loop's
 * poll reads them, and vscode-jsonrpc hands them on from a check phase of its own, queued after this one's
 * first turn: hence two turns.
 */
export async function messagesInTurn(): Promise<void> {
  await new Promise<void>((resolve) => setImmediate(resolve));
  await new Promise<void>((resolve) => setImmediate(resolve));
}
