import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  type CodeLens,
  CodeLensRefreshRequest,
  type CompletionItem,
  CompletionItemKind,
  createConnection,
  DidChangeConfigurationNotification,
  DidChangeWatchedFilesNotification,
  ErrorCodes,
  FileChangeType,
  type Hover,
  type InitializeParams,
  type InitializeResult,
  IPCMessageReader,
  type Location,
  LSPErrorCodes,
  MarkupKind,
  type PrepareRenameResult,
  ProposedFeatures,
  ResponseError,
  StreamMessageReader,
  StreamMessageWriter,
  TextDocumentSyncKind,
  TextDocuments,
  type WorkDoneProgressServerReporter,
  type WorkspaceEdit,
} from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { type AnalysisResult, MAX_TYPED_CHARS, readSourceFile } from '../engine/analysis';
import { CONFIG_FILE, TERRACI_CONFIG_FILES } from '../engine/config';
import {
  addContractDiagnostics,
  componentSourceAt,
  type EngineDiagnostic,
  moduleById,
  moduleContaining,
  moduleHover,
  moduleLensTitle,
  moduleLocation,
  modulesPlacedIn,
  moduleWithBackendAt,
  type OutputIndex,
  outputBlockHover,
  outputCompletions,
  outputDefinitions,
  outputIndex,
  outputLenses,
  outputReferences,
  outputRenameEdits,
  outputsReadLine,
  outputUseHover,
  prepareOutputRename,
  referenceHover,
  referenceOutcomesAt,
  workspaceDiagnostics,
} from '../engine/features';
import { isConfigurationFile } from '../engine/workspace';
import {
  AffectedRequest,
  EdgeOutputsRequest,
  EnvironmentsRequest,
  type EnvironmentsResult,
  FileReadersRequest,
  GraphChangedNotification,
  GraphRequest,
  ModuleForUriRequest,
  PanelDetailsRequest,
  PanelGraphRequest,
  PipelineRequest,
  RunStateChangedNotification,
  RunTargetsRequest,
  SelectEnvironmentRequest,
  ServerStatusNotification,
  SHOW_MODULE_COMMAND,
  SHOW_REFERENCES_COMMAND,
  StartupTimingsNotification,
  type TerraceInitializationOptions,
  WorkspaceTrustedNotification,
} from '../protocol';
import { affectedFor } from './affectedRequest';
import { contractsInTurn } from './contractsInTurn';
import { DiagnosticsPublisher } from './diagnosticsPublisher';
import { edgeOutputsFor } from './edgeOutputsRequest';
import { FolderSettings } from './editorSettings';
import { fileReadersOf } from './fileReadersRequest';
import { toGraphModule } from './graphModel';
import { graphModelFor, panelGraphFor } from './graphRequests';
import { toCompletionItem, toLocation, toOutputLens, toWorkspaceEdit } from './lspShapes';
import { IpcMessageWriter, watchOutgoing } from './outgoingMessages';
import { panelDetails } from './panelDetails';
import { pipelineFor } from './pipelineRequest';
import { RunStateCache } from './runStateCache';
import { runTargetsFor } from './runTargetsRequest';
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
let initialFolders: string[] = [];

const progress = new Map<string, Promise<WorkDoneProgressServerReporter>>();
const publisher = new DiagnosticsPublisher((params) => connection.sendDiagnostics(params));

let folders: WorkspaceFolders;
/** The start-up steps' times, sent once the first folder's diagnostics are out (`StartupTimings`). */
const startup = {
  processStartedAt: Math.round(performance.timeOrigin),
  initializedAt: 0,
  settingsAt: 0,
  readingAt: 0,
  indexedAt: 0,
  sent: false,
};

/** Run states (Run Plans) for hovers, code lenses and the graph; `terrace.planMaxAge` is in hours. */
const runStateCache = new RunStateCache(
  async (root) => (await settings.of(root)).planMaxAge ?? DEFAULT_PLAN_MAX_AGE_HOURS,
);
const DEFAULT_PLAN_MAX_AGE_HOURS = 24;
let runStateTimer: NodeJS.Timeout | undefined;

/** The editor's `terrace` settings of each folder: the one place the server reads them (see `settingsChanged`). */
let settings = new FolderSettings(undefined);

connection.onInitialize((params: InitializeParams): InitializeResult => {
  startup.initializedAt = Date.now();
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
  for (const root of initialFolders) folders.add(root);
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

connection.onHover(async (params): Promise<Hover | null> => {
  const found = await analysisFor(params.textDocument.uri);
  if (!found) return null;
  const { result, file } = found;
  const outputs = outputsOf(found);
  const use =
    outputUseHover(outputs, file, params.position, textOf) ?? outputBlockHover(outputs, file, params.position);
  if (use !== undefined) return markdown(use);
  const outcomes = referenceOutcomesAt(result, file, params.position);
  if (outcomes.length > 0) {
    const read = outputsReadLine(outputs, outcomes);
    return markdown(
      read === undefined ? referenceHover(result, outcomes) : `${referenceHover(result, outcomes)}\n\n${read}`,
    );
  }
  const module = moduleWithBackendAt(result, file, params.position);
  if (!module) return null;
  const runState = (await runStateCache.forFolder(found.folder))?.get(module.id);
  return markdown(moduleHover(result, module, runState));
});

connection.onDefinition(async (params): Promise<Location[]> => {
  const found = await analysisFor(params.textDocument.uri);
  if (!found) return [];
  const { result, file } = found;
  const declared = outputDefinitions(outputsOf(found), file, params.position);
  if (declared.length > 0) return declared.map((location) => toLocation(location.file, location.range));
  // A Stack's `source = "./modules/network"`: the module's file.
  const source = componentSourceAt(result, file, params.position);
  if (source !== undefined)
    return [toLocation(source, { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } })];
  const writers = new Set<string>();
  for (const outcome of referenceOutcomesAt(result, file, params.position)) {
    if (outcome.kind === 'edge') writers.add(outcome.edge.to);
    if (outcome.kind === 'ambiguous') for (const writer of outcome.item.writers) writers.add(writer);
  }
  return [...writers].flatMap((id) => {
    const module = moduleById(result, id);
    if (!module) return [];
    const location = moduleLocation(module);
    return [toLocation(location.file, location.range)];
  });
});

connection.onReferences(async (params): Promise<Location[]> => {
  const found = await analysisFor(params.textDocument.uri);
  if (!found) return [];
  const { result, file } = found;
  const uses = outputReferences(outputsOf(found), file, params.position, params.context.includeDeclaration);
  if (uses) return uses.map((location) => toLocation(location.file, location.range));
  const module = moduleWithBackendAt(result, file, params.position);
  if (!module) return [];
  const readers = result.edges
    .filter((edge) => edge.to === module.id)
    .map((edge) => toLocation(edge.reference.file, edge.reference.headerRange));
  const unique = new Map(readers.map((location) => [`${location.uri}#${location.range.start.line}`, location]));
  const place = moduleLocation(module);
  const own = params.context.includeDeclaration ? [toLocation(place.file, place.range)] : [];
  return [...own, ...unique.values()];
});

connection.onCodeLens(async (params): Promise<CodeLens[]> => {
  const found = await analysisFor(params.textDocument.uri);
  if (!found) return [];
  const { result, file, folder } = found;
  const states = await runStateCache.forFolder(folder);
  const modules = modulesPlacedIn(result, file).map((module) => ({
    range: moduleLocation(module).range,
    command: {
      title: moduleLensTitle(result, module, states?.get(module.id)),
      command: SHOW_MODULE_COMMAND,
      arguments: [pathToUri(folder.root), module.id],
    },
  }));
  const outputs = outputLenses(outputsOf(found), file).map((lens) => toOutputLens(lens, SHOW_REFERENCES_COMMAND));
  return [...modules, ...outputs];
});

connection.onCompletion(async (params): Promise<CompletionItem[]> => {
  const document = documents.get(params.textDocument.uri);
  const found = document && (await analysisFor(params.textDocument.uri));
  if (!found) return [];
  const { line, character } = params.position;
  const linePrefix = document.getText({ start: { line, character: 0 }, end: { line, character } });
  return outputCompletions(outputsOf(found), found.file, linePrefix, textOf).map((item) =>
    toCompletionItem(item, CompletionItemKind.Property),
  );
});

connection.onPrepareRename(async (params): Promise<PrepareRenameResult | ResponseError | null> => {
  const found = await analysisFor(params.textDocument.uri);
  if (!found) return null;
  const start = prepareOutputRename(outputsOf(found), found.file, params.position, textOf);
  if (!start) return null;
  if ('refused' in start) return new ResponseError(LSPErrorCodes.RequestFailed, start.refused);
  return { range: start.range, placeholder: start.name };
});

connection.onRenameRequest(async (params): Promise<WorkspaceEdit | ResponseError | null> => {
  const found = await analysisFor(params.textDocument.uri);
  if (!found) return null;
  const rename = outputRenameEdits(outputsOf(found), found.file, params.position, params.newName, textOf);
  if ('refused' in rename) return new ResponseError(LSPErrorCodes.RequestFailed, rename.refused);
  return toWorkspaceEdit(rename.edits);
});

connection.onRequest(GraphRequest.type, async (params) => {
  const folder = params.folderUri ? folderAt(params.folderUri) : folders.all()[0];
  return folder ? graphModelFor(folder, runStateCache) : null;
});

connection.onRequest(PanelGraphRequest.type, async (params) => {
  const folder = folderAt(params.folderUri);
  return folder ? panelGraphFor(folder, runStateCache) : null;
});

connection.onRequest(PanelDetailsRequest.type, async (params) => {
  const folder = folderAt(params.folderUri);
  if (!folder) return null;
  await folder.ready;
  return panelDetails(folder.analysis.result(), params);
});

connection.onRequest(EdgeOutputsRequest.type, async (params) => {
  const folder = folderAt(params.folderUri);
  return folder ? edgeOutputsFor(folder, params.version) : null;
});

connection.onRequest(EnvironmentsRequest.type, async (params) => {
  const folder = folderAt(params.folderUri);
  if (!folder) return new ResponseError(ErrorCodes.InvalidParams, `not a workspace folder: ${params.folderUri}`);
  await folder.ready;
  return environmentsOf(folder);
});

connection.onRequest(SelectEnvironmentRequest.type, async (params) => {
  const folder = folderAt(params.folderUri);
  if (!folder) return new ResponseError(ErrorCodes.InvalidParams, `not a workspace folder: ${params.folderUri}`);
  await folder.ready;
  const known = folder.analysis.environmentNames();
  const environment = params.environment ?? undefined;
  if (environment !== undefined && !known.includes(environment)) {
    const which = known.length > 0 ? `the environments are ${known.join(', ')}` : 'it has none';
    return new ResponseError(ErrorCodes.InvalidParams, `no environment '${environment}' in this folder: ${which}`);
  }
  return environmentsOf(await folders.selectEnvironment(folder.root, environment));
});

function environmentsOf(folder: FolderState): EnvironmentsResult {
  return {
    environments: folder.analysis.environmentNames(),
    selected: folders.environmentOf(folder.root) ?? null,
  };
}

connection.onRequest(ModuleForUriRequest.type, async (params) => {
  const found = await analysisFor(params.uri);
  const module = found && moduleContaining(found.result, found.file);
  return module ? toGraphModule(module, found.result.waitingForCycles.includes(module.id)) : null;
});

connection.onRequest(FileReadersRequest.type, async (params) => {
  const file = uriToPath(params.uri);
  if (!file) return [];
  // The folder holding it, or, for a file outside every folder (`../../modules/x`), each folder.
  const holder = folders.forFile(file);
  const asked = holder ? [holder] : folders.all();
  for (const folder of asked) {
    await folder.ready;
    await folders.flushEdits(folder);
  }
  return fileReadersOf(asked, file);
});

connection.onRequest(PipelineRequest.type, async (params) => {
  const folder = folderAt(params.folderUri);
  if (!folder) return { kind: 'error' as const, message: `not a workspace folder: ${params.folderUri}` };
  await folder.ready;
  return pipelineFor(folder, params);
});

connection.onRequest(AffectedRequest.type, async (params) => {
  const folder = folderAt(params.folderUri);
  if (!folder) return { kind: 'error' as const, message: `not a workspace folder: ${params.folderUri}` };
  await folder.ready;
  return affectedFor(folder, params);
});

connection.onRequest(RunTargetsRequest.type, async (params) => {
  const folder = folderAt(params.folderUri);
  if (!folder) return { kind: 'error' as const, message: `not a workspace folder: ${params.folderUri}` };
  await folder.ready;
  return runTargetsFor(folder, params);
});

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
    if (canRefreshCodeLens) void connection.sendRequest(CodeLensRefreshRequest.type).catch(() => undefined);
    for (const folder of folders.all()) graphChanged(folder);
  }, 200);
}

/** The analysis a document belongs to, once its folder is indexed. */
async function analysisFor(uri: string) {
  const file = uriToPath(uri);
  if (!file) return undefined;
  const folder = folders.forFile(file);
  if (!folder) return undefined;
  await folder.ready;
  // Answered from the latest text of every open document, even inside the debounce.
  await folders.flushEdits(folder);
  return { folder, file, result: folder.analysis.result() };
}

/** The contracts between the folder's states, indexed for the editor's requests (once per analysis). */
function outputsOf(found: { folder: FolderState; result: AnalysisResult }): OutputIndex {
  return outputIndex(found.result, found.folder.analysis.contracts());
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

function markdown(value: string): Hover {
  return { contents: { kind: MarkupKind.Markdown, value } };
}

async function folderChanged(folder: FolderState): Promise<void> {
  startup.indexedAt ||= Date.now();
  const reporter = progress.get(folder.root);
  if (reporter) {
    progress.delete(folder.root);
    (await reporter).done();
  }
  sendStatus();
  // The first diagnostics do not wait for the contracts between states: theirs follow at once.
  const first = !startup.sent;
  // After an edit the panel asks for the new graph at once: it waits neither for the contracts between states
  // nor for every file's diagnostics compared with those shown. A fresh window's first problems go first.
  if (!first) graphChanged(folder);
  await publishDiagnostics(folder, !first);
  if (first) setImmediate(() => void publishDiagnostics(folder));
  if (!startup.sent) {
    startup.sent = true;
    const { processStartedAt, initializedAt, settingsAt, readingAt, indexedAt } = startup;
    void connection.sendNotification(StartupTimingsNotification.type, {
      processStartedAt,
      initializedAt,
      settingsAt,
      readingAt,
      indexedAt,
      publishedAt: Date.now(),
    });
    startExactSyntax();
  }
  if (first) graphChanged(folder);
  if (canRefreshCodeLens) void connection.sendRequest(CodeLensRefreshRequest.type).catch(() => undefined);
}

/** Tells the client the folder's graph is at a new version: the graph panel asks for it again. */
function graphChanged(folder: FolderState): void {
  void connection.sendNotification(GraphChangedNotification.type, {
    folderUri: pathToUri(folder.root),
    version: folder.version,
    states: runStateCache.statesGeneration,
  });
}

/**
 * Publishes every file's diagnostics in the folder, open or not, and clears those of files that
 * no longer have any. Syntax errors use Terraform's own messages (hcl2json) for open documents
 * and for files the fast parser found broken. The reads of outputs a writer does not declare are
 * among them unless `withContracts` is false (the first publish, which does not wait for them).
 */
async function publishDiagnostics(folder: FolderState, withContracts = true): Promise<void> {
  const version = folder.version;
  const byFile = new Map<string, EngineDiagnostic[]>();
  if (folder.error) {
    byFile.set(path.join(folder.root, CONFIG_FILE), [
      {
        range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
        severity: 'error',
        code: 'module-problem',
        message: folder.error,
        related: [],
      },
    ]);
  } else {
    const contracts = withContracts ? await contractsInTurn(folder.analysis) : undefined;
    if (folder.version !== version) return;
    for (const [file, list] of workspaceDiagnostics(folder.analysis.result())) byFile.set(file, list);
    if (contracts) addContractDiagnostics(contracts, byFile);
    await useTerraformSyntaxMessages(folder, byFile);
  }
  if (folder.version !== version) return;
  await publisher.publish(folder.root, byFile, () => folder.version === version);
}

/**
 * Terraform's syntax messages check what is typed: hcl2json is started, in the background, once the
 * first diagnostics are out and a document is open, so that the first edit does not wait for its start.
 */
function startExactSyntax(): void {
  if (startup.sent && documents.all().length > 0) folders.startExactSyntax();
}

async function useTerraformSyntaxMessages(folder: FolderState, byFile: Map<string, EngineDiagnostic[]>): Promise<void> {
  const open = documents
    .all()
    .flatMap((document) => uriToPath(document.uri) ?? [])
    // Only the files the engine reads: not a `.tf` file its `.tofu` namesake replaces, nor `.tofu` files in Terraform's.
    .filter(
      (file) =>
        folders.forFile(file) === folder && isConfigurationFile(file) && folder.analysis.factsOf(file) !== undefined,
    );
  const broken = [...byFile].filter(([, list]) => list.some((d) => d.code === 'hcl-syntax')).map(([file]) => file);
  for (const file of new Set([...open, ...broken])) {
    const text = documents.get(pathToUri(file))?.getText();
    const exact = await folders.exactSyntaxErrors(file, text);
    if (exact === undefined) continue;
    const others = (byFile.get(file) ?? []).filter((d) => d.code !== 'hcl-syntax');
    const syntax = exact.map(
      (error): EngineDiagnostic => ({
        range: error.range,
        severity: 'error',
        code: 'hcl-syntax',
        message: error.message,
        related: [],
      }),
    );
    if (others.length + syntax.length > 0) byFile.set(file, [...others, ...syntax]);
    else byFile.delete(file);
  }
}

function reportProgress(root: string, done: number, total: number): Promise<void> {
  // The first progress is reported once the folder's settings are in, as the reading starts.
  startup.settingsAt ||= Date.now();
  startup.readingAt ||= Date.now();
  let reporter = progress.get(root);
  if (!reporter) {
    reporter = connection.window.createWorkDoneProgress().then((created) => {
      created.begin('Terrace', 0, `Indexing Terraform modules in ${path.basename(root)}`, false);
      return created;
    });
    progress.set(root, reporter);
  }
  return reporter.then((created) => {
    if (total === 0) created.report(0, 'Indexing Terraform modules: reading the files');
    else
      created.report(
        Math.round((done / Math.max(total, 1)) * 100),
        `Indexing Terraform modules: ${done.toLocaleString('en-US')}/${total.toLocaleString('en-US')} files`,
      );
  });
}

function sendStatus(): void {
  const all = folders.all();
  const failed = all.find((folder) => folder.error);
  const indexing = all.length === 0 || all.some((folder) => folder.indexing);
  let modules = 0;
  let cycles = 0;
  let tofu = 0;
  if (!indexing) {
    for (const folder of all) {
      if (folder.error) continue;
      const result = folder.analysis.result();
      modules += result.modules.length;
      cycles += result.cycles.length;
      if (result.engine === 'tofu') tofu++;
    }
  }
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  void connection.sendNotification(ServerStatusNotification.type, {
    health: failed ? 'error' : indexing ? 'indexing' : 'ready',
    message: failed
      ? (failed.error ?? '')
      : indexing
        ? 'indexing'
        : `${plural(modules, 'module')}, ${plural(cycles, 'cycle')}${engineNote(tofu, all.length)}`,
    modules,
    cycles,
  });
}

/** Which folders OpenTofu reads (Terraform reads the others, as by default): ` · read as OpenTofu`. */
function engineNote(tofu: number, folderCount: number): string {
  if (tofu === 0) return '';
  return tofu === folderCount ? ' · read as OpenTofu' : ` · ${tofu} of ${folderCount} folders read as OpenTofu`;
}

function forgetFolder(root: string): void {
  folders.remove(root);
  settings.forget(root);
  runStateCache.forget(root);
  publisher.forget(root);
  sendStatus();
}

/**
 * The file a URI names; none for any other scheme (`untitled:`, a diff's, a notebook cell's, a virtual
 * workspace's): Terrace reads folders on disk, and what is not on disk is no module of theirs.
 */
function uriToPath(uri: string): string | undefined {
  if (!uri.startsWith('file:')) return undefined;
  try {
    return fileURLToPath(uri);
  } catch {
    // A file: URI with a host or an encoded separator (`file://server/x` on Linux) names no local file.
    return undefined;
  }
}

/** The workspace folder a request names, if it is one. */
function folderAt(folderUri: string): FolderState | undefined {
  const root = uriToPath(folderUri);
  return root === undefined ? undefined : folders.get(root);
}

function pathToUri(file: string): string {
  return pathToFileURL(file).href;
}

documents.listen(connection);
connection.listen();
