import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { TerraceApi } from '../../../client/src/extension';

export const EXTENSION_ID = 'terrace.terrace';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `probe` until it returns a value other than `undefined`/`false`, or fails after `timeoutMs`. */
export async function waitFor<T>(
  what: string,
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(100);
  }
}

export function terraceExtension(): vscode.Extension<TerraceApi> {
  const extension = vscode.extensions.getExtension<TerraceApi>(EXTENSION_ID);
  assert.ok(extension, `extension ${EXTENSION_ID} is installed`);
  return extension;
}

/** The extension's API, once its language client is running. */
export async function runningApi(): Promise<TerraceApi> {
  const api = await terraceExtension().activate();
  await waitFor('the language client to be running', () => api.clientState() === 'running');
  return api;
}
