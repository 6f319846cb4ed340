/**
 * Every custom request and notification between the Terrace client, server and webview, and the
 * graph model they exchange. The one file that declares the protocol: client, server and webview
 * import it (the webview for its types only).
 */
import { NotificationType, RequestType } from 'vscode-languageserver-protocol';

/** A zero-based LSP position and range; the graph model carries plain objects, not class instances. */
export interface WirePosition {
  line: number;
  character: number;
}
export interface WireRange {
  start: WirePosition;
  end: WirePosition;
}
export interface WireLocation {
  uri: string;
  range: WireRange;
}

export interface GraphModule {
  /** The module's path relative to the workspace folder, with `/`; `.` for the folder itself. */
  id: string;
  uri: string;
  /** Execution level: 0 = no dependencies. */
  level: number;
  /** Named path segments from the discovery pattern (service, environment, region, module). */
  segments: Record<string, string>;
  backend: { type: string; address: string } | null;
  /** Where the module declares its backend (or its first file), for "open module". */
  location: WireLocation;
  inCycle: boolean;
}

export interface GraphEdge {
  /** The reader: the module whose remote_state block points at `to`. */
  from: string;
  /** The writer of the state. */
  to: string;
  location: WireLocation;
  name: string;
  instance: string | null;
  address: string;
  matchedBy: 'backend-address' | 'path-convention';
  inCycle: boolean;
}

export interface GraphProblem {
  from: string;
  location: WireLocation;
  name: string;
  reason: string;
}

export interface GraphModel {
  /** The workspace folder this graph belongs to. */
  root: string;
  /** Increases with every change of the graph. */
  version: number;
  modules: GraphModule[];
  edges: GraphEdge[];
  levels: string[][];
  /** Each cycle as a closed path: `["a", "b", "a"]`. */
  cycles: string[][];
  unresolved: GraphProblem[];
  ambiguous: GraphProblem[];
}

/** The server's health, shown by the client's status bar item. Server → client. */
export type ServerHealth = 'starting' | 'indexing' | 'ready' | 'error';
export interface ServerStatusParams {
  health: ServerHealth;
  /** One short line, e.g. `12 modules, 1 cycle`. */
  message: string;
  modules: number;
  cycles: number;
}
export namespace ServerStatusNotification {
  export const method = 'terrace/serverStatus';
  export const type = new NotificationType<ServerStatusParams>(method);
}

/** The whole graph of one workspace folder (the first one when `folderUri` is absent). Client → server. */
export interface GraphParams {
  folderUri?: string;
}
export namespace GraphRequest {
  export const method = 'terrace/graph';
  export const type = new RequestType<GraphParams, GraphModel | null, void>(method);
}

/** The module that contains a file or folder. Client → server. */
export interface ModuleForUriParams {
  uri: string;
}
export namespace ModuleForUriRequest {
  export const method = 'terrace/moduleForUri';
  export const type = new RequestType<ModuleForUriParams, GraphModule | null, void>(method);
}

/** The graph of a folder changed; fetch it again with `terrace/graph`. Server → client. */
export interface GraphChangedParams {
  folderUri: string;
  version: number;
}
export namespace GraphChangedNotification {
  export const method = 'terrace/graphChanged';
  export const type = new NotificationType<GraphChangedParams>(method);
}

/**
 * The client command a module's code lens runs, with `[folderUri, moduleId]`: shows the module's
 * neighbourhood (the graph panel focused on it, or a quick pick of its dependencies and dependents).
 */
export const SHOW_MODULE_COMMAND = 'terrace.showModule';

/** Messages between the graph panel's host (client) and its webview. */
export type PanelToWebview = { type: 'graph'; graph: GraphModel };
export type WebviewToPanel =
  | { type: 'ready' }
  | { type: 'openModule'; id: string }
  | { type: 'rendered'; nodes: number; levels: number };
