import path from 'node:path';
import {
  CodeLensRefreshRequest,
  createConnection,
  DidChangeConfigurationNotification,
  DidChangeWatchedFilesNotification,
  FileChangeType,
  type InitializeParams,
  type InitializeResult,
  IPCMessageReader,
  ProposedFeatures,
  StreamMessageReader,
  StreamMessageWriter,
  TextDocumentSyncKind,
  TextDocuments,
} from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { CachedBundle } from '../codeCache';
import { MAX_TYPED_CHARS, readSourceFile } from '../engine/analysis';
import { CONFIG_FILE, TERRACI_CONFIG_FILES } from '../engine/config';
import {
  GraphChangedNotification,
  RunStateChangedNotification,
  ServerStatusNotification,
  type TerraceInitializationOptions,
  WorkspaceTrustedNotification,
} from '../protocol';
import { DiagnosticsPublisher } from './diagnosticsPublisher';
import { type DocumentAnalysis, registerEditorFeatures } from './editorFeatures';
import { FolderSettings } from './editorSettings';
import { pathToUri, uriToPath } from './fileUris';
import { folderDiagnostics, type OpenDocuments } from './folderDiagnostics';
import { registerFolderRequests } from './folderRequests';
import { IndexingProgress } from './indexingProgress';
import { IpcMessageWriter, watchOutgoing } from './outgoingMessages';
import { RunStateCache } from './runStateCache';
import { ServerStartup } from './serverStartup';
import { serverStatus } from './serverStatus';
import { type DiskChange, type FolderState, WorkspaceFolders } from './workspaceFolders';

/**
 * The connection to the client, over the transport its command line names (VS Code: node IPC). Over
 * stdio, a frame whose header cannot be read (no `Content-Length`, or not a number) leaves the reader
 * unable to find where the next message starts, deaf for good: the server exits instead, so that the
 * client sees it and starts a fresh one.
 */
function connect() {
  if (process.argv.includes('--node-ipc')) {
    const writer = new IpcMessageWriter(process);
    watchOutgoing(writer);
    return createConnection(ProposedFeatures.all, new IPCMessageReader(process), writer);
  }
  if (!process.argv.includes('--stdio')) return createConnection(ProposedFeatures.all);
  watchOutgoing({
    get busy() {
      return process.stdout.writableLength > 0;
    },
  });
  const reader = new StreamMessageReader(process.stdin);
  reader.onError((error) => {
    console.error(`terrace: a message from the client could not be read, exiting: ${error.message}`);
    process.exit(1);
  });
  return createConnection(ProposedFeatures.all, reader, new StreamMessageWriter(process.stdout));
}

/**
 * The Terrace language server: LSP wiring only. Requests become engine calls (via the folder
 * analyses) and engine results become LSP shapes; the analysis itself lives in `engine/`.
 */
const connection = connect();
const documents = new TextDocuments(TextDocument);
let canWatchFiles = false;
let canReadConfiguration = false;
let canRefreshCodeLens = false;
/** Whether the client has said `initialized`: it answers requests only from then on. */
let clientInitialized = false;
let initialFolders: string[] = [];

/** The open documents, for Terraform's syntax messages on what is typed. */
const openDocuments: OpenDocuments = {
  files: () => documents.all().flatMap((document) => uriToPath(document.uri) ?? []),
  textOf: (file) => documents.get(pathToUri(file))?.getText(),
};

const progress = new IndexingProgress(connection);
const publisher = new DiagnosticsPublisher((params) => connection.sendDiagnostics(params));

let folders: WorkspaceFolders;
/** The start-up steps' times, sent once the first folder's diagnostics are out; then the code cache written. */
const startup = new ServerStartup();

/** Told by the entry how this bundle was loaded (`codeCache.ts`). */
export function codeCacheLoaded(loaded: CachedBundle): void {
  startup.loadedAs(loaded);
}

/** Run states (Run Plans) for hovers, code lenses and the graph; `terrace.planMaxAge` is in hours. */
const runStateCache = new RunStateCache(
  async (root) => (await settings.of(root)).planMaxAge ?? DEFAULT_PLAN_MAX_AGE_HOURS,
);
const DEFAULT_PLAN_MAX_AGE_HOURS = 24;
let runStateTimer: NodeJS.Timeout | undefined;

/** The editor's `terrace` settings of each folder: the one place the server reads them (see `settingsChanged`). */
let settings = new FolderSettings(undefined);

connection.onInitialize((params: InitializeParams): InitializeResult => {
  startup.initialized();
  // Restricted Mode: no process (git) until the client says the workspace is trusted.
  const options = (params.initializationOptions ?? {}) as TerraceInitializationOptions;
  folders = new WorkspaceFolders(
    {
      progress: (root, done, total) => reportProgress(root, done, total),
      changed: (folder) => void folderChanged(folder),
      documentsChanged: (folder) => void publishDiagnostics(folder),
    },
    (root) => settings.of(root),
    options.trusted !== false,
  );
  canReadConfiguration = params.capabilities.workspace?.configuration === true;
  settings = new FolderSettings(
    canReadConfiguration
      ? (root) => connection.workspace.getConfiguration({ scopeUri: pathToUri(root), section: 'terrace' })
      : undefined,
  );
  for (const [uri, raw] of Object.entries(options.settings ?? {})) {
    const root = uriToPath(uri);
    if (root) settings.started(root, raw);
  }
  canWatchFiles = params.capabilities.workspace?.didChangeWatchedFiles?.dynamicRegistration === true;
  canRefreshCodeLens = params.capabilities.workspace?.codeLens?.refreshSupport === true;
  initialFolders = (params.workspaceFolders ?? []).flatMap((folder) => uriToPath(folder.uri) ?? []);
  const root = params.rootUri ? uriToPath(params.rootUri) : undefined;
  if (initialFolders.length === 0 && root) initialFolders = [root];
  // A folder whose settings are known starts indexing as this answer goes out: the client's `initialized` follows
  // 10-190 ms later in a window still starting. Only what asks the client waits for it (`IndexingProgress`).
  for (const folder of initialFolders) if (settings.knownWithoutAsking(folder)) folders.add(folder);
  return {
    capabilities: {
      textDocumentSync: TextDocumentSyncKind.Incremental,
      hoverProvider: true,
      definitionProvider: true,
      referencesProvider: true,
      codeLensProvider: { resolveProvider: false },
      // `.outputs.`, `outputs["`, a Stack's `component.<name>.`.
      completionProvider: { triggerCharacters: ['.', '"'] },
      renameProvider: { prepareProvider: true },
      workspace: { workspaceFolders: { supported: true, changeNotifications: true } },
    },
    serverInfo: { name: 'terrace', version: '0.1.0' },
  };
});

// A window closed soon after its first diagnostics still leaves its compiled code for the next window's server.
connection.onShutdown(() => startup.shuttingDown(connection));

connection.onInitialized(() => {
  connection.console.info(`Terrace language server started (${initialFolders.length} folder(s))`);
  if (canWatchFiles) {
    void connection.client.register(DidChangeWatchedFilesNotification.type, {
      watchers: [
        '**/*.tf',
        '**/*.tf.json',
        '**/*.tofu',
        '**/*.tofu.json',
        // Signs of OpenTofu: a version pin decides which engine reads the workspace.
        '**/.opentofu-version',
        '**/.tofu-version',
        '**/*.tfvars',
        '**/*.tfvars.json',
        '**/*.tfbackend',
        '**/*.hcl',
        '**/*.backend',
        `**/${CONFIG_FILE}`,
        ...TERRACI_CONFIG_FILES.map((name) => `**/${name}`),
        // Run states: written by Run Plans here, in another window or by `terrace plan` in a shell.
        '**/.terrace/state.json',
        '**/.terrace/locks/*.lock',
      ].map((globPattern) => ({ globPattern })),
    });
  }
  if (canReadConfiguration)
    void connection.client.register(DidChangeConfigurationNotification.type, { section: 'terrace' });
  connection.workspace.onDidChangeWorkspaceFolders((event) => {
    for (const removed of event.removed) {
      const root = uriToPath(removed.uri);
      if (root) forgetFolder(root);
    }
    for (const added of event.added) {
      const root = uriToPath(added.uri);
      if (root) folders.add(root);
    }
  });
  clientInitialized = true;
  progress.clientReady();
  for (const root of initialFolders) if (!folders.get(root)) folders.add(root);
  sendStatus();
});

connection.onDidChangeConfiguration(() => void settingsChanged());

/**
 * The editor's settings may have changed: each folder whose `terrace` settings did is indexed again. VS Code's
 * client says so as it starts too, with the settings it started the server with: indexing then again cost a
 * fresh window a second analysis of the whole workspace, which Show Graph and every request waited for.
 */
async function settingsChanged(): Promise<void> {
  const changed = await settings.changed(folders.all().map((folder) => folder.root));
  // A folder removed meanwhile stays removed.
  for (const root of changed) if (folders.get(root)) folders.add(root);
}

connection.onNotification(WorkspaceTrustedNotification.type, () => folders.trust());

documents.onDidChangeContent((event) => {
  const file = uriToPath(event.document.uri);
  if (file) folders.fileChanged(file, event.document.getText());
});
documents.onDidOpen(() => startExactSyntax());
documents.onDidClose((event) => {
  const file = uriToPath(event.document.uri);
  if (file) folders.fileChanged(file);
});

connection.onDidChangeWatchedFiles((params) => {
  const changes = params.changes.flatMap((change) => {
    const file = uriToPath(change.uri);
    return file ? [{ ...change, file }] : [];
  });
  if (changes.some(({ file }) => !file.includes(`${path.sep}.terrace${path.sep}`))) runStateCache.filesChanged();
  const onDisk: DiskChange[] = [];
  for (const change of changes) {
    const file = change.file;
    if (file.includes(`${path.sep}.terrace${path.sep}`)) {
      runStatesChanged();
      continue;
    }
    if (path.basename(file) === CONFIG_FILE || TERRACI_CONFIG_FILES.includes(path.basename(file))) {
      const folder = folders.forFile(file);
      if (folder) folders.add(folder.root);
    } else if (change.type === FileChangeType.Deleted) onDisk.push({ file, deleted: true });
    else {
      // An open document is read as typed, unless it is too large to be: then as saved.
      const open = documents.get(change.uri);
      if (!open || open.getText().length > MAX_TYPED_CHARS) onDisk.push({ file, deleted: false });
    }
  }
  folders.filesOnDisk(onDisk);
});

registerEditorFeatures(connection, { documents, runStates: runStateCache, analysisFor, textOf });
registerFolderRequests(connection, { folders: () => folders, runStates: runStateCache, analysisFor });

connection.onNotification(RunStateChangedNotification.type, (params) => {
  const root = uriToPath(params.folderUri);
  if (root && params.modules?.length) runStateCache.modulesRan(root, params.modules);
  runStatesChanged();
});

/**
 * Run states changed (a run here reported it, or `.terrace/` changed on disk): code lenses and
 * the graph panel ask again, once per burst of changes.
 */
function runStatesChanged(): void {
  runStateCache.changed();
  if (runStateTimer) clearTimeout(runStateTimer);
  runStateTimer = setTimeout(() => {
    runStateTimer = undefined;
    refreshCodeLenses();
    for (const folder of folders.all()) graphChanged(folder);
  }, 200);
}

/** The analysis a document belongs to, once its folder is indexed. */
async function analysisFor(uri: string): Promise<DocumentAnalysis | undefined> {
  const file = uriToPath(uri);
  if (!file) return undefined;
  const folder = folders.forFile(file);
  if (!folder) return undefined;
  await folder.ready;
  // Answered from the latest text of every open document, even inside the debounce.
  await folders.flushEdits(folder);
  return { folder, file, result: folder.analysis.result() };
}

/** A file's text for what a request shows of it (an output's value): the open buffer, else the file on disk. */
function textOf(file: string): string | undefined {
  const document = documents.get(pathToUri(file));
  if (document) return document.getText();
  try {
    return readSourceFile(file);
  } catch {
    return undefined;
  }
}

async function folderChanged(folder: FolderState): Promise<void> {
  startup.indexed();
  progress.end(folder.root);
  sendStatus();
  // The first diagnostics do not wait for the contracts between states: theirs follow at once.
  const first = !startup.done;
  // After an edit the panel asks for the new graph at once: it waits neither for the contracts between states
  // nor for every file's diagnostics compared with those shown. A fresh window's first problems go first.
  if (!first) graphChanged(folder);
  await publishDiagnostics(folder, !first);
  if (first) setImmediate(() => void publishDiagnostics(folder));
  if (!startup.done) {
    startup.firstDiagnosticsOut(connection);
    startExactSyntax();
  }
  if (first) graphChanged(folder);
  refreshCodeLenses();
}

/** Tells the client the folder's graph is at a new version: the graph panel asks for it again. */
function graphChanged(folder: FolderState): void {
  void connection.sendNotification(GraphChangedNotification.type, {
    folderUri: pathToUri(folder.root),
    version: folder.version,
    states: runStateCache.statesGeneration,
  });
}

/** Publishes what changed of every file's diagnostics in the folder (`folderDiagnostics`). */
async function publishDiagnostics(folder: FolderState, withContracts = true): Promise<void> {
  const version = folder.version;
  const byFile = await folderDiagnostics(folder, folders, openDocuments, withContracts);
  if (byFile) await publisher.publish(folder.root, byFile, () => folder.version === version);
}

/**
 * Terraform's syntax messages check what is typed: hcl2json is started, in the background, once the
 * first diagnostics are out and a document is open, so that the first edit does not wait for its start.
 */
function startExactSyntax(): void {
  if (startup.done && documents.all().length > 0) folders.startExactSyntax();
}

function reportProgress(root: string, done: number, total: number): void {
  // The first progress is reported once the folder's settings are in, as the reading starts.
  startup.reading();
  progress.report(root, done, total);
}

/**
 * The editor asks for code lenses again. Not before the client says `initialized`: it could not answer, and it asks
 * for them anyway as its code lens provider registers then.
 */
function refreshCodeLenses(): void {
  if (canRefreshCodeLens && clientInitialized)
    void connection.sendRequest(CodeLensRefreshRequest.type).catch(() => undefined);
}

function sendStatus(): void {
  void connection.sendNotification(ServerStatusNotification.type, serverStatus(folders.all()));
}

function forgetFolder(root: string): void {
  folders.remove(root);
  settings.forget(root);
  runStateCache.forget(root);
  publisher.forget(root);
  sendStatus();
}

documents.listen(connection);
connection.listen();
