import { type Connection, ErrorCodes, ResponseError } from 'vscode-languageserver/node';
import { moduleContaining } from '../engine/features';
import {
  AffectedRequest,
  EdgeOutputsRequest,
  EnvironmentsRequest,
  type EnvironmentsResult,
  FileReadersRequest,
  GraphRequest,
  ModuleForUriRequest,
  PanelDetailsRequest,
  PanelGraphRequest,
  PipelineRequest,
  RunTargetsRequest,
  SelectEnvironmentRequest,
} from '../protocol';
import { affectedFor } from './affectedRequest';
import { edgeOutputsFor } from './edgeOutputsRequest';
import type { DocumentAnalysis } from './editorFeatures';
import { fileReadersOf } from './fileReadersRequest';
import { uriToPath } from './fileUris';
import { toGraphModule } from './graphModel';
import { graphModelFor, panelGraphFor } from './graphRequests';
import { panelDetails } from './panelDetails';
import { pipelineFor } from './pipelineRequest';
import type { RunStateCache } from './runStateCache';
import { runTargetsFor } from './runTargetsRequest';
import type { FolderState, WorkspaceFolders } from './workspaceFolders';

/** What Terrace's own requests read. */
export interface FolderRequestsContext {
  /** The workspace folders, once the client initialized the server. */
  folders(): WorkspaceFolders;
  runStates: RunStateCache;
  analysisFor(uri: string): Promise<DocumentAnalysis | undefined>;
}

/**
 * Terrace's own requests (`protocol.ts`) of a workspace folder: its graph whole and for the panel, the panel's
 * details, the outputs along its edges, its environments, pipelines, what changes affect, run targets; and of a
 * file: its module, the modules that read it.
 */
export function registerFolderRequests(connection: Connection, context: FolderRequestsContext): void {
  const { runStates, analysisFor } = context;
  /** The workspace folder a request names, if it is one. */
  const folderAt = (folderUri: string): FolderState | undefined => {
    const root = uriToPath(folderUri);
    return root === undefined ? undefined : context.folders().get(root);
  };

  connection.onRequest(GraphRequest.type, async (params) => {
    const folder = params.folderUri ? folderAt(params.folderUri) : context.folders().all()[0];
    return folder ? graphModelFor(folder, runStates) : null;
  });

  connection.onRequest(PanelGraphRequest.type, async (params) => {
    const folder = folderAt(params.folderUri);
    return folder ? panelGraphFor(folder, runStates) : null;
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
    return environmentsOf(context.folders(), folder);
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
    const folders = context.folders();
    return environmentsOf(folders, await folders.selectEnvironment(folder.root, environment));
  });

  connection.onRequest(ModuleForUriRequest.type, async (params) => {
    const found = await analysisFor(params.uri);
    const module = found && moduleContaining(found.result, found.file);
    return module ? toGraphModule(module, found.result.waitingForCycles.includes(module.id)) : null;
  });

  connection.onRequest(FileReadersRequest.type, async (params) => {
    const file = uriToPath(params.uri);
    if (!file) return [];
    const folders = context.folders();
    // The folder holding it, or, for a file outside every folder (`../../modules/x`), each folder.
    const holder = folders.forFile(file);
    const asked = holder ? [holder] : folders.all();
    for (const folder of asked) {
      await folder.ready;
      await folders.flushEdits(folder);
    }
    return fileReadersOf(asked, file);
  });

  /** A request of a folder, answered once it is indexed; an error for what is not one. */
  const inFolder = async <T>(folderUri: string, answer: (folder: FolderState) => T | Promise<T>) => {
    const folder = folderAt(folderUri);
    if (!folder) return { kind: 'error' as const, message: `not a workspace folder: ${folderUri}` };
    await folder.ready;
    return answer(folder);
  };
  connection.onRequest(PipelineRequest.type, (params) =>
    inFolder(params.folderUri, (folder) => pipelineFor(folder, params)),
  );
  connection.onRequest(AffectedRequest.type, (params) =>
    inFolder(params.folderUri, (folder) => affectedFor(folder, params)),
  );
  connection.onRequest(RunTargetsRequest.type, (params) =>
    inFolder(params.folderUri, (folder) => runTargetsFor(folder, params)),
  );
}

function environmentsOf(folders: WorkspaceFolders, folder: FolderState): EnvironmentsResult {
  return {
    environments: folder.analysis.environmentNames(),
    selected: folders.environmentOf(folder.root) ?? null,
  };
}
