/**
 * Every custom request and notification between the Terrace client, server and webview, and the
 * graph model they exchange. The one file that declares the protocol: client, server and webview
 * import it (the webview for its types only).
 */
import { NotificationType, RequestType } from 'vscode-languageserver-protocol';
// The panel's layouts, which the extension host makes for the webview, are the webview's own shapes.
import type { AheadLayout, Layout, LayoutInput } from '../../webview/src/layoutGraph';
// A type from its own file, not the folder's index.ts: the webview type-checks this file for the browser,
// and the index would bring in the config folder's Node file readers.
import type { ExecutionOptions } from './engine/config/pipelineConfig';

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
  /** `unit`: a Terragrunt unit; `module`: a Terraform root module. */
  /** `component`: a Terraform Stack's component or embedded stack (`<stack folder>/component.<name>`), planned by HCP Terraform only. */
  kind: 'module' | 'unit' | 'component';
  /**
   * Execution level: 0 = no dependencies. A module in a cycle, or one that waits for one, has no level
   * (nothing can run it until the cycle is broken): this is where the engine files it, after what it depends on.
   */
  level: number;
  /** Named path segments from the discovery pattern (service, environment, region, module). */
  segments: Record<string, string>;
  backend: { type: string; address: string } | null;
  /** Where the module declares its backend (or its first file), for "open module". */
  location: WireLocation;
  inCycle: boolean;
  /** Depends on a module in a cycle, directly or not, and is in none itself: it has no level either. Absent: false. */
  waitsForCycle?: boolean;
  /** False when a file it reads does not parse: terraform cannot run it, and its edges come from the blocks that still parse. */
  parses: boolean;
  /** Its run state (Run Plans), once the folder has run terraform through Terrace (`.terrace/state.json`). */
  runState?: RunStateView;
}

/**
 * A module's run state, after burrito's: Idle (its last plan has no changes, or they were
 * applied, and is current), PlanNeeded (never planned, files changed, plan failed or too old, a
 * dependency applied since) or ApplyNeeded (its saved plan has changes not applied yet).
 */
export interface RunStateView {
  state: 'Idle' | 'PlanNeeded' | 'ApplyNeeded';
  /** Why, in a few words: `files changed since the last plan`, `1 to add, 0 to change, 0 to destroy`. */
  reason: string;
  /** What the last plan would do. */
  counts?: { add: number; change: number; destroy: number; import: number; outputs: number };
  /** ISO times of the last plan and apply. */
  plannedAt?: string;
  appliedAt?: string;
  /** A drift check found changes that no edit explains. */
  drifted?: boolean;
  /** A run is using terraform on it right now. */
  running?: { command: string; pid: number; hostname: string; since: string };
  /**
   * The last run decided it without running terraform in it, since its last plan: `unaffected` (no output it
   * reads changed upstream) or `stale` (an output it reads changes once an upstream applies), and why.
   */
  decided?: { status: 'unaffected' | 'stale'; reason: string; at: string };
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
  matchedBy: 'backend-address' | 'path-convention' | 'known-text' | 'dependency' | 'component';
  /** `exact`; `inferred` (one writer fits the known parts of the address); `ambiguous` (several fit). */
  match: 'exact' | 'inferred' | 'ambiguous';
  /** What an inferred or ambiguous edge assumes of the unknown parts: each hole's value, null if unknown. */
  assumed: Record<string, string | null>;
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
  /** The modules by the level the engine files them at: those with no level (in or waiting for a cycle) included. */
  levels: string[][];
  /** Each cycle as a closed path: `["a", "b", "a"]`, one for each strongly connected set of modules. */
  cycles: string[][];
  /** The modules of each cycle's strongly connected set, parallel to `cycles` (a path may pass only some of them). */
  cycleModules?: string[][];
  unresolved: GraphProblem[];
  ambiguous: GraphProblem[];
}

/**
 * The editor's `terrace.*` settings (package.json `contributes.configuration`): what the client
 * reads through its config, and the `terrace` section the server asks for per folder with
 * `workspace/configuration` (read again on `workspace/didChangeConfiguration`).
 */
export interface TerraceSettings {
  /** The binary Run Plans runs; where set, it overrides `execution.binary` of `.terrace.yaml`. */
  terraformPath: string;
  /** What Run Plans runs Terragrunt units with; where set, it overrides `execution.terragrunt`. */
  terragruntPath: string;
  /** Modules Run Plans runs at once; where set, it overrides `execution.parallelism`. */
  parallelism: number;
  /** Hours after which a plan is too old (0 = no limit). */
  planMaxAge: number;
  /** Minutes between automatic drift checks (0 = off). */
  driftCheckInterval: number;
  discovery: { mode: 'auto' | 'pattern'; pattern: string; exclude: string[] };
}

/** What the client says at `initialize`, as its `initializationOptions`. */
export interface TerraceInitializationOptions {
  /**
   * False in a workspace the user has not trusted (VS Code's Restricted Mode): the server starts no process
   * there (no git), and refuses what needs one. Absent: trusted.
   */
  trusted?: boolean;
  /**
   * Each workspace folder's `terrace` settings as the server starts (folder URI → what `workspace/configuration`
   * would answer for it): the first indexing need not wait for that round trip, slow while the editor is
   * still starting. Asked for again after `workspace/didChangeConfiguration`.
   */
  settings?: Record<string, unknown>;
}

/** The user trusted the workspace: the server may start git again, and indexes its folders anew. Client → server. */
export namespace WorkspaceTrustedNotification {
  export const method = 'terrace/workspaceTrusted';
  export const type = new NotificationType<void>(method);
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

/**
 * When the server's start-up steps happened, as epoch milliseconds (one clock on one machine): its
 * process started, `initialize` arrived, the first folder's settings were read, its files' reading
 * started, it was indexed, its diagnostics were published.
 * Sent once, after the first publish, for what the editor measures from opening a window. Server → client.
 */
export interface StartupTimings {
  processStartedAt: number;
  initializedAt: number;
  /** The first folder's settings read (the editor's `terrace` section, `.terrace.yaml`). */
  settingsAt: number;
  /** Its files' reading started (the progress asked for, not waited for). */
  readingAt: number;
  indexedAt: number;
  publishedAt: number;
  /** Whether the server's bundle was compiled from the code cache an earlier server wrote (`codeCache.ts`). */
  fromCodeCache: boolean;
}
export namespace StartupTimingsNotification {
  export const method = 'terrace/startupTimings';
  export const type = new NotificationType<StartupTimings>(method);
}

/** The whole graph of one workspace folder (the first one when `folderUri` is absent). Client → server. */
export interface GraphParams {
  folderUri?: string;
}
export namespace GraphRequest {
  export const method = 'terrace/graph';
  export const type = new RequestType<GraphParams, GraphModel | null, void>(method);
}

/**
 * A folder's graph as the graph panel's page draws it (`PanelModel`), packed (`PackedPanelModel`): what Show
 * Graph waits for. What a click or a hover card needs that the page does not have is asked apart
 * (`PanelDetailsRequest`). Client → server.
 */
export interface PanelGraphParams {
  folderUri: string;
}
export namespace PanelGraphRequest {
  export const method = 'terrace/panelGraph';
  export const type = new RequestType<PanelGraphParams, PackedPanelModel | null, void>(method);
}

/**
 * What the panel's hover cards and clicks need of some of a folder's modules that its page does not have:
 * where each is written, its state's address, and the texts of their unresolved and ambiguous references.
 * Answered from the folder's analysis now, a few bytes at any size (the whole graph model is 16 MB at 11,000
 * units). Client → server.
 */
export interface PanelDetailsParams {
  folderUri: string;
  modules: string[];
  /** How many problem texts to answer at most: each module's unresolved, then its ambiguous, in `modules`' order. */
  problems: number;
}
export interface PanelModuleDetails {
  id: string;
  location: WireLocation;
  /** The address of its state; null without a backend, `""` for a backend whose address is not known. */
  address: string | null;
}
export interface PanelDetails {
  /** The modules asked for that the graph has, in the order asked. */
  modules: PanelModuleDetails[];
  problems: PanelProblem[];
}
export namespace PanelDetailsRequest {
  export const method = 'terrace/panelDetails';
  export const type = new RequestType<PanelDetailsParams, PanelDetails | null, void>(method);
}

/**
 * The outputs read along each edge of a folder's graph at `version`, by the edge's place in its `edges`: each
 * the writer's outputs the reader reads, sorted (the contract between their states). Answered once the
 * contracts are known, which the graph does not wait for; null when the graph is no longer at `version`.
 * Client → server.
 */
export interface EdgeOutputsParams {
  folderUri: string;
  version: number;
}
export namespace EdgeOutputsRequest {
  export const method = 'terrace/edgeOutputs';
  export const type = new RequestType<EdgeOutputsParams, string[][] | null, void>(method);
}

/** A folder's environments (configured in `.terrace.yaml` or named by its files) and the one analysed. Client → server. */
export interface EnvironmentsParams {
  folderUri: string;
}
export interface EnvironmentsResult {
  environments: string[];
  /** The environment the folder is analysed in; null: all of them. */
  selected: string | null;
}
export namespace EnvironmentsRequest {
  export const method = 'terrace/environments';
  export const type = new RequestType<EnvironmentsParams, EnvironmentsResult, void>(method);
}

/**
 * Analyse a folder in one environment (null: all of them); answers once the folder is analysed again.
 * An environment the folder does not have is an error naming the ones it has. Client → server.
 */
export interface SelectEnvironmentParams {
  folderUri: string;
  environment: string | null;
}
export namespace SelectEnvironmentRequest {
  export const method = 'terrace/selectEnvironment';
  export const type = new RequestType<SelectEnvironmentParams, EnvironmentsResult, void>(method);
}

/** The module that contains a file or folder. Client → server. */
export interface ModuleForUriParams {
  uri: string;
}
export namespace ModuleForUriRequest {
  export const method = 'terrace/moduleForUri';
  export const type = new RequestType<ModuleForUriParams, GraphModule | null, void>(method);
}

/**
 * The modules whose plan reads a file, each with how: for the code lens on a file that modules read from
 * elsewhere (a root `terragrunt.hcl`, a `global.yaml`, a policy template, a child module's file). Client → server.
 */
export interface FileReadersParams {
  uri: string;
}
export interface FileReader {
  /** The module's id in its workspace folder. */
  id: string;
  /** It reads the file as one of its own folder's (its `main.tf`): no reader from elsewhere. */
  own: boolean;
  /** How it reads it: `reads live/terragrunt.hcl (include "root", terragrunt.hcl:1)`. */
  why: string;
  /** Where the module opens: its backend block, or its first file. */
  location: WireLocation;
}
export namespace FileReadersRequest {
  export const method = 'terrace/fileReaders';
  export const type = new RequestType<FileReadersParams, FileReader[], void>(method);
}

/** The graph of a folder changed; fetch it again with `terrace/graph`. Server → client. */
export interface GraphChangedParams {
  folderUri: string;
  version: number;
  /** The run states' generation: the graph of one version changes with them (its modules' run states). */
  states: number;
}
export namespace GraphChangedNotification {
  export const method = 'terrace/graphChanged';
  export const type = new NotificationType<GraphChangedParams>(method);
}

/** The CI pipeline of a workspace folder, generated by the server (the same engine as `terrace generate`). Client → server. */
export interface PipelineParams {
  folderUri: string;
  ci: 'gitlab' | 'github';
  /** Only the modules affected by changes (committed, uncommitted and untracked) since the merge base with `baseRef`. */
  changedOnly: boolean;
  baseRef?: string;
}
export type PipelineResult =
  | {
      kind: 'pipeline';
      text: string;
      /** Where the file belongs, relative to the folder (`gitlab.path` / `github.path` of `.terrace.yaml`). */
      path: string;
      uri: string;
      /** Job names in file order. */
      jobs: string[];
      modules: number;
      /** What is at `uri` now: nothing, an earlier Terrace output, or a file Terrace did not write. */
      existing: 'absent' | 'generated' | 'foreign';
      /** Files the pipeline needs beside it (GitHub's reusable workflow), each written with it. */
      companions: PipelineCompanion[];
      /** The platform's limits the pipeline passes, each naming the limit and the figure, and the way out. */
      warnings: string[];
    }
  /** The graph has cycles (closed paths): no order to run in. */
  | { kind: 'cycle'; cycles: string[][]; message: string }
  | BrokenModulesResult
  | { kind: 'error'; message: string };
export interface PipelineCompanion {
  text: string;
  path: string;
  uri: string;
  existing: 'absent' | 'generated' | 'foreign';
}
/** Modules to plan or run whose files do not parse (their syntax errors are in the Problems view). */
export interface BrokenModulesResult {
  kind: 'broken';
  modules: string[];
  message: string;
}
export namespace PipelineRequest {
  export const method = 'terrace/pipeline';
  export const type = new RequestType<PipelineParams, PipelineResult, void>(method);
}

/**
 * The modules a run covers (Run Plans, Apply Saved Plans, Check Drift), chosen by the server from
 * its graph: every module, one or more with their dependencies and/or dependents, or the ones
 * changed since a ref (committed, uncommitted and untracked) with their dependents. Client → server.
 */
export interface RunTargetsParams {
  folderUri: string;
  /** Module ids; absent = every module (or the changed ones with `changedOnly`). */
  modules?: string[];
  withDependencies?: boolean;
  withDependents?: boolean;
  changedOnly?: boolean;
  baseRef?: string;
  /**
   * Gate the targets from these modules (Apply Saved Plans: those whose saved plan it applies): they run, and
   * the others only when an output they read changes. Changed-only targets are gated from what the change reaches.
   */
  gateFrom?: string[];
}
export interface RunTargetWire {
  id: string;
  /** `unit`: a Terragrunt unit, run with terragrunt; undefined: a root module. */
  kind?: 'module' | 'unit';
  /** A unit of a stack file: the stack's folder, where `terragrunt stack generate` makes it. */
  stackDir?: string;
  /** Absolute folder of the module. */
  dir: string;
  /** Folders of the local child modules it calls (they count for its run state). */
  sourceDirs: string[];
  /** Its direct dependencies. */
  dependencies: string[];
  /** In a gated run: whether it runs whatever its upstreams do, and what it reads of each dependency (see `RunTarget.gate`). */
  gate?: { changed: boolean; reads: Record<string, string[] | 'all' | 'unknown'> };
}
export type RunTargetsResult =
  | {
      kind: 'targets';
      /** The workspace folder (where `.terrace/` is). */
      root: string;
      targets: RunTargetWire[];
      /** The `execution` section of `.terrace.yaml`, as the engine reads it, for the workspace's engine and environment. */
      execution: ExecutionOptions;
      /** How many of the chosen nodes are Terraform Stacks components, which HCP Terraform plans, not a run. */
      components: number;
      /** What to say before the run starts: the graph's cycles none of the targets closes, left alone. */
      notes: string[];
    }
  | BrokenModulesResult
  | { kind: 'error'; message: string };
export namespace RunTargetsRequest {
  export const method = 'terrace/runTargets';
  export const type = new RequestType<RunTargetsParams, RunTargetsResult, void>(method);
}

/**
 * The modules affected by the changes since a base ref (committed since the merge base, uncommitted and
 * untracked), as a changed-only pipeline counts them: for the graph panel's "affected" view. Client → server.
 */
export interface AffectedParams {
  folderUri: string;
  baseRef: string;
}
export type AffectedResult =
  | {
      kind: 'affected';
      baseRef: string;
      /** Modules whose plan reads a changed file: their own, a child module's, an included or read file. */
      changed: string[];
      /** Those and everything that depends on them. */
      affected: string[];
      /** Why each affected module is in, by id: the changed files it reads and how, or the module it depends on. */
      why: Record<string, string>;
    }
  | { kind: 'error'; message: string };
export namespace AffectedRequest {
  export const method = 'terrace/affected';
  export const type = new RequestType<AffectedParams, AffectedResult, void>(method);
}

/** A run started or finished a module of a folder: the server reads the run states again. Client → server. */
export interface RunStateChangedParams {
  folderUri: string;
  /**
   * The modules terraform just ran in: their files are read again for their run states, whatever the file
   * watcher has said (a run fingerprints what it read; a missed or late change event must not make it look stale).
   */
  modules?: string[];
}
export namespace RunStateChangedNotification {
  export const method = 'terrace/runStateChanged';
  export const type = new NotificationType<RunStateChangedParams>(method);
}

/**
 * The client command a module's code lens runs, with `[folderUri, moduleId]`: shows the module's
 * neighbourhood (the graph panel focused on it, or a quick pick of its dependencies and dependents).
 */
export const SHOW_MODULE_COMMAND = 'terrace.showModule';

/**
 * The client command an output's code lens runs, with `[uri, position, locations]` as LSP shapes (the
 * output block's name, every use of it): VS Code's references view on them.
 */
export const SHOW_REFERENCES_COMMAND = 'terrace.showReferences';

/**
 * The graph as the panel's host sends it to its webview: what the panel draws and lists, without what only
 * the host uses (file URIs, addresses a read resolved to, assumptions). In VS Code for the web the message
 * crosses a websocket, and at 3,000 units the whole model was 6 MB; this is half. A read names its file
 * relative to its reader's folder; the webview opens a module by its id and a read by its file and line.
 */
export type PanelModule = Omit<GraphModule, 'uri' | 'location' | 'backend'> & {
  /**
   * Its backend's type, null without one. Its state's address comes when a hover card asks (`address`): at
   * 3,000 units the addresses were 0.4 of the message's 1 MB.
   */
  backend: string | null;
  /**
   * How many of its remote-state reads resolve to no module, and to several (none: 0). Their texts come when
   * a hover card asks (`problems`): at 11,000 units with 18,000 of them, they were 5.4 of the message's 8.8 MB.
   */
  unresolved?: number;
  ambiguous?: number;
};
export type PanelEdge = Omit<GraphEdge, 'location' | 'address' | 'assumed'> & {
  /** The writer's outputs the reader reads along it, sorted (`EdgeOutputsRequest`); empty until they are known. */
  outputs: string[];
  /** The reading file, relative to the reader's folder (`from`), with `/`: `main.tf`, `../modules/x/main.tf`. */
  file: string;
  /** Zero-based, where the reading block starts. */
  line: number;
  character: number;
};
/** An unresolved or ambiguous reference's text, for a hover card. */
export type PanelProblem = Omit<GraphProblem, 'location'> & { kind: 'unresolved' | 'ambiguous' };
export type PanelModel = Omit<GraphModel, 'modules' | 'edges' | 'unresolved' | 'ambiguous'> & {
  modules: PanelModule[];
  edges: PanelEdge[];
};
/**
 * The panel's graph as the server answers it and the host posts it (`webview/src/packedGraph.ts`): modules
 * and edges by column, repeated strings by their index in `strings`, each edge's and level's modules by their
 * index in `modules`.
 */
export type PackedPanelModel = Omit<PanelModel, 'modules' | 'edges' | 'levels'> & {
  modules: PackedRows;
  edges: PackedRows;
  levels: number[][];
  strings: PackedStrings;
};
/**
 * The strings of a packed graph, each after the one before (the modules' ids first, sorted): the first
 * `prefixes[n]` characters of the string before, then `suffixes[n]`. Sibling folders' ids share most of theirs.
 */
export interface PackedStrings {
  prefixes: number[];
  suffixes: string[];
}
/** Lists of names, each name by its index in `strings`. */
export interface PackedOutputs {
  lists: number[][];
  strings: string[];
}
/** Objects by column: each key's values, for the rows that have it (`present`, else all but `absent`). */
export interface PackedRows {
  count: number;
  columns: Record<string, PackedColumn>;
}
export type PackedColumn = (
  | { strings: number[] }
  /** Strings that come in the table's order (the modules' ids): their indexes as `steps`. */
  | { stringSteps: string }
  /** Strings (or nulls) of a column with few of them: each row's as one character, its place in `of` in base 36. */
  | { codes: string; of: number[] }
  | { flags: string }
  /** Whole numbers from 0 to 35: each row's as one character in base 36 (an edge's column, a module's level). */
  | { digits: string }
  /** Whole numbers that never fall, each at most 35 past the one before (from 0): each row's step, in base 36. */
  | { steps: string }
  | { stringLists: number[][] }
  /** Lists that are all empty (the outputs along the edges, before they are known). */
  | { emptyLists: true }
  /** Objects (a module's segments, its run state): rows of their own, by column. */
  | { objects: PackedRows }
  | { values: unknown[] }
) & { present?: number[]; absent?: number[] };

/** Messages between the graph panel's host (client) and its webview. */
export type PanelToWebview =
  /**
   * The graph to draw (again, after a change): the panel keeps its zoom, focus and selection. To a page just
   * loaded, with the layout (by its `layoutKey`) of the view the last page on this folder opened with, when
   * the host keeps it: a panel reopened on the same graph draws without asking for it. And with the layouts
   * the host made ahead of a new page (`openingViews.ts`), by shape: a page whose first view has one draws it.
   */
  | {
      type: 'graph';
      graph: PackedPanelModel;
      folderUri: string;
      opening?: { key: string; layout: Layout };
      ahead?: AheadLayout[];
    }
  /**
   * The outputs read along the edges of the graph at `version` (`EdgeOutputsRequest`), when they came after it:
   * each edge's list, by its place in the graph's `edges`, its names by their index in `strings`.
   */
  | { type: 'outputs'; version: number; outputs: PackedOutputs }
  /** Select a module and show only its neighbourhood (the code lens's "show module"). */
  | { type: 'focus'; id: string }
  /** A panel command from the editor title bar. */
  | { type: 'command'; command: PanelCommand }
  /** What the changes since a base ref affect (after the webview asked, and again after each change of the graph); null: off. */
  | { type: 'affected'; affected: Extract<AffectedResult, { kind: 'affected' }> | null; error?: string }
  /** The answer to a `problems` request. */
  | { type: 'problems'; id: number; problems: PanelProblem[] }
  /** The answer to an `address` request: the module's state address, null if it has no backend. */
  | { type: 'address'; id: number; address: string | null }
  /** The answer to a `layout` request: the layout, or why there is none. */
  | { type: 'layout'; id: number; layout: Layout }
  | { type: 'layout'; id: number; error: string };
export type PanelCommand = 'fit' | 'exportSvg' | 'exportPng';
/** The graph to draw, posted to the page or, for a new page, in its HTML (`graphPanelHtml.ts`). */
export type GraphMessage = Extract<PanelToWebview, { type: 'graph' }>;

export type WebviewToPanel =
  /** The webview's script runs; `pageMs`: how long after its page started loading (where its load time goes). */
  /**
   * `pageMs`: the page's script ran so long after its navigation began; `pageAt`: that beginning, on the machine's
   * clock; `graphInPage`: it drew the graph its HTML carried; `area`: the size its drawing fits into, in pixels.
   */
  | {
      type: 'ready';
      pageMs?: number;
      pageAt?: number;
      graphInPage?: boolean;
      area?: { width: number; height: number };
    }
  | { type: 'openModule'; id: string }
  /** Open a read that makes an edge, clicked in the list of an edge's reads: its reader, its file (relative to the reader's folder) and its place. */
  | { type: 'openRead'; from: string; file: string; line: number; character: number }
  /** Show what the changes affect (the host asks for the base ref), or stop showing it. */
  | { type: 'affected'; on: boolean }
  /** The texts of these modules' unresolved and ambiguous references, the first `limit`, each module's in turn: for a hover card. */
  | { type: 'problems'; id: number; modules: string[]; limit: number }
  /** The address of a module's state (its backend's), for a hover card. */
  | { type: 'address'; id: number; module: string }
  /** Lay this view out (in the extension host, where elkjs is warm and recent layouts are kept). */
  | { type: 'layout'; id: number; input: LayoutInput }
  /** The drawing is done (also a test hook): what is on screen and how long the layout took. */
  | {
      type: 'rendered';
      /** Graph version drawn. */
      version: number;
      /** Module nodes drawn, not counting folded ones. */
      nodes: number;
      /** Folded nodes drawn (a folder or group each). */
      groups: number;
      edges: number;
      /** Edges drawn whose tooltip names outputs read along them (none until the outputs come: `outputsShown`). */
      outputEdges: number;
      /** Columns drawn: execution levels, spans of them where folds are, and those of modules with no level. */
      levels: number;
      /** The drawing's size and the panel's drawing area's, in CSS pixels: their shapes compared. */
      drawing: { width: number; height: number };
      panel: { width: number; height: number };
      /** Milliseconds from receiving the graph (or the view change) to the drawing. */
      ms: number;
      /** When the drawing was on screen, by the page's clock (ms since the epoch): on one machine, the host's less this report's way back. */
      drawnAt: number;
      /** Of which the layout (in the worker) took. */
      layoutMs: number;
      /** Where the layout ran: in the extension host, in the webview's Web Worker, or in the page when no worker could start. */
      layoutIn: 'host' | 'worker' | 'page';
      /**
       * Where `ms` went: a graph that came unpacked and indexed (0 for a view change), the view built from it, the
       * wait for its layout (the way to where it runs and back, and the layout), the drawing, and the wait for
       * the frame that shows it.
       */
      steps: { graphMs: number; viewMs: number; layoutWaitMs: number; drawMs: number; frameMs: number };
      /** A node title's height on screen, in CSS pixels: its size in the drawing times the drawing's zoom. */
      titlePx: number;
      /** The module the view is focused on, if any. */
      focus: string | null;
      /** The groups drawn as boxes around their modules (expanded groups; each Stack, grouped by Stack). */
      boxes: string[];
    }
  /** The edges' outputs that came after the graph are on its drawn edges (also a test hook): how many name some. */
  | { type: 'outputsShown'; version: number; edges: number }
  /** Save the current view as a file: SVG text or base64 PNG; the host asks where. */
  | { type: 'export'; format: 'svg' | 'png'; data: string }
  /** Something went wrong in the webview; the host logs it. */
  | { type: 'problem'; message: string };
