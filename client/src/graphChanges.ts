import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { GraphChangedNotification, type GraphChangedParams } from '../../server/src/protocol';

/**
 * The server's `terrace/graphChanged` notifications as an event. The language client keeps one
 * handler per notification method, so every listener in the client subscribes here instead of
 * calling `client.onNotification` itself.
 */
const emitters = new WeakMap<LanguageClient, vscode.EventEmitter<GraphChangedParams>>();

export function onGraphChanged(client: LanguageClient): vscode.Event<GraphChangedParams> {
  let emitter = emitters.get(client);
  if (!emitter) {
    const created = new vscode.EventEmitter<GraphChangedParams>();
    client.onNotification(GraphChangedNotification.type, (params) => created.fire(params));
    emitters.set(client, created);
    emitter = created;
  }
  return emitter.event;
}
