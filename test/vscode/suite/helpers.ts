import * as assert from 'node:assert/strict';
import { cpSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import type { TerraceApi } from '../../../client/src/extension';
import type { RenderedReport } from '../../../client/src/panelReports';

export const EXTENSION_ID = 'terrace.terrace';

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

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

/** Waits for the code cache of `bundle` (`client`, `languageServer`, `layoutThread`) in `folder`: its file's name. */
export function codeCacheWritten(folder: string, bundle: string, timeoutMs = 60_000): Promise<string> {
  return waitFor(
    `the code cache of ${bundle}`,
    () => {
      try {
        return readdirSync(folder).find((file) => new RegExp(`^${bundle}-[0-9a-f]{24}\\.bin$`).test(file));
      } catch {
        return undefined;
      }
    },
    timeoutMs,
  );
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

/** The hover text at a position, once it includes `expected` (the server answers once it has indexed). */
export function hoverTextAt(uri: vscode.Uri, position: vscode.Position, expected: string): Promise<string> {
  return waitFor(`a hover including ${expected}`, async () => {
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, position);
    const all = hovers
      .flatMap((hover) => hover.contents.map((content) => (typeof content === 'string' ? content : content.value)))
      .join('\n');
    return all.includes(expected) ? all : undefined;
  });
}

/**
 * Copies `test/fixtures/<fixture>` into the open workspace (a scratch copy) as `<folder>/` and opens its
 * `.hcl` and `.tf` files: the server sees new files through the file watcher, and opening them makes sure,
 * whatever the watcher's delay. Returns the workspace folder's path and URI.
 */
export async function copyFixtureIntoWorkspace(
  fixture: string,
  folder: string,
): Promise<{ root: string; folderUri: string }> {
  const workspace = vscode.workspace.workspaceFolders?.[0];
  assert.ok(workspace, 'a workspace folder is open');
  const root = workspace.uri.fsPath;
  cpSync(path.join(terraceExtension().extensionPath, 'test', 'fixtures', fixture), path.join(root, folder), {
    recursive: true,
  });
  for (const uri of await vscode.workspace.findFiles(`${folder}/**/*.{hcl,tf}`))
    await vscode.workspace.openTextDocument(uri);
  return { root, folderUri: workspace.uri.toString() };
}

/**
 * The workbench's picture in the light and the dark theme, taken by the code-server runner when asked
 * (`terrace-screenshot <file>` on the console) into TERRACE_VSCODE_SCREENSHOT_DIR; false where the
 * runner cannot take it. The theme is put back after.
 */
export async function workbenchPictures(light: string, dark: string): Promise<boolean> {
  const pictures = process.env.TERRACE_VSCODE_SCREENSHOT_DIR;
  if (!pictures) {
    console.log('no pictures: this runner cannot take the workbench’s (only the code-server runner can)');
    return false;
  }
  const themes = vscode.workspace.getConfiguration('workbench');
  const before = themes.inspect<string>('colorTheme')?.globalValue;
  try {
    for (const [theme, file] of [
      ['Default Light Modern', light],
      ['Default Dark Modern', dark],
    ] as const) {
      await themes.update('colorTheme', theme, vscode.ConfigurationTarget.Global);
      // The webview restyles itself from the theme's variables: give it a moment to repaint.
      await sleep(1500);
      const target = path.join(pictures, file);
      console.log(`terrace-screenshot ${target}`);
      await waitFor(`the picture ${file}`, () => existsSync(target), 15_000);
      const bytes = readFileSync(target);
      assert.equal(bytes.subarray(1, 4).toString('latin1'), 'PNG');
      assert.equal(bytes.readUInt32BE(16), 1600, 'the whole workbench, 1600 px wide');
    }
  } finally {
    await themes.update('colorTheme', before, vscode.ConfigurationTarget.Global);
  }
  return true;
}

/** The title size at which a drawing's nodes are drawn (`render.ts`), to read the zoom from a report. */
const TITLE_SIZE = 13;

/**
 * A small graph's first view: the whole drawing in the panel, as large as that allows (never above
 * life size), whatever its titles' size (`firstView.ts`).
 */
export function assertShownWhole(drawn: RenderedReport): void {
  const whole = Math.min(drawn.panel.width / drawn.drawing.width, drawn.panel.height / drawn.drawing.height, 1);
  const zoom = drawn.titlePx / TITLE_SIZE;
  assert.ok(
    Math.abs(zoom - whole) < 0.01,
    `drawing ${JSON.stringify(drawn.drawing)} at ${zoom.toFixed(3)} in a panel of ${JSON.stringify(drawn.panel)}`,
  );
}

/**
 * Where a fresh window's start-up went, in milliseconds after the runner opened the window
 * (TERRACE_WINDOW_OPENED_AT; none when the runner does not say): the extension host up, Terrace
 * activated, its language client running, the server's process started, `initialize`, the first
 * folder's settings read, its files' reading started (once the progress shows), indexed, its diagnostics published, and the first of them in the editor (none when the
 * workspace has no problem to show). Waits for the server's report of its own steps.
 */
export async function startupBreakdown(api: TerraceApi): Promise<Record<string, number | null> | undefined> {
  const opened = Number(process.env.TERRACE_WINDOW_OPENED_AT);
  if (!opened) return undefined;
  const server = await waitFor('the server’s start-up times', () => api.startup.server, 60_000);
  const since = (at: number | undefined) => (at === undefined ? null : at - opened);
  return {
    extensionHostStarted: since(api.startup.hostStartedAt),
    activated: since(api.startup.activatedAt),
    clientLoaded: since(api.startup.clientLoadedAt),
    clientRunning: since(api.startup.clientRunningAt),
    serverProcessStarted: since(server.processStartedAt),
    serverInitialized: since(server.initializedAt),
    settingsRead: since(server.settingsAt),
    readingStarted: since(server.readingAt),
    indexed: since(server.indexedAt),
    diagnosticsPublished: since(server.publishedAt),
    firstDiagnosticsInEditor: since(api.startup.firstDiagnosticsAt),
  };
}
