/**
 * What the extension's entry gives the language server it forks, before the client's bundle has loaded: the
 * window's folders and what the client's initialization options will say of them (`TerraceInitializationOptions`),
 * in the environment variable `EARLY_START_ENV` as JSON. The server starts reading the folders at once
 * (`earlyIndexing.ts`) instead of when the client's `initialize` comes. Not part of the protocol: a process's
 * start-up, kept in a file of its own so that the entry bundles nothing else of the server.
 */
export interface EarlyStart {
  /** The workspace folders' URIs, as the client's `initialize` will list them. */
  folders: string[];
  /** As `TerraceInitializationOptions.trusted`. */
  trusted: boolean;
  /** As `TerraceInitializationOptions.settings`: each folder's `terrace` settings, by URI. */
  settings: Record<string, unknown>;
}

export const EARLY_START_ENV = 'TERRACE_EARLY_START';
