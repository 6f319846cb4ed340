import * as vscode from 'vscode';
import type { TerraceSettings } from '../../server/src/protocol';

type DiscoveryKey = keyof TerraceSettings['discovery'];

/** A `terrace.*` setting, by its key under `terrace.` (package.json `contributes.configuration`). */
export type SettingKey = Exclude<keyof TerraceSettings, 'discovery'> | `discovery.${DiscoveryKey}`;

/** The type of a setting's value, from the one shape both sides read. */
type SettingValue<K extends SettingKey> = K extends `discovery.${infer D extends DiscoveryKey}`
  ? TerraceSettings['discovery'][D]
  : K extends keyof TerraceSettings
    ? TerraceSettings[K]
    : never;

/**
 * When a change of each setting takes effect. `live`: what uses it reads it again (the comment
 * says where); `restart`: only a restarted language server sees it, and changing it offers a
 * restart. A new setting must be put in one or the other.
 */
const APPLIES: Record<SettingKey, 'live' | 'restart'> = {
  // Read by each run (Run Plans, Check Drift, Apply Saved Plans) as it starts.
  terraformPath: 'live',
  terragruntPath: 'live',
  parallelism: 'live',
  // Read by Apply Saved Plans as it runs, and by the server for each computation of run states.
  planMaxAge: 'live',
  // The drift schedule sets its timer again.
  driftCheckInterval: 'live',
  // The server asks for them again and indexes every folder again on workspace/didChangeConfiguration.
  'discovery.mode': 'live',
  'discovery.pattern': 'live',
  'discovery.exclude': 'live',
};

/** Every setting, in package.json order. */
export const SETTING_KEYS = Object.keys(APPLIES) as SettingKey[];

/** The settings only a restarted server sees: none today, since the server reads its settings again on each change. */
export const requiresServerRestart: readonly SettingKey[] = SETTING_KEYS.filter((key) => APPLIES[key] === 'restart');

/** The full id of a setting, as in the Settings editor and `affectsConfiguration`. */
export function settingId(key: SettingKey): string {
  return `terrace.${key}`;
}

/**
 * The editor's `terrace.*` settings, typed: for the workspace, or as they apply to one folder
 * (folder over workspace over user). The client reads settings only through this class; each
 * getter reads the current value.
 */
export class Config {
  private constructor(private readonly scope: vscode.Uri | undefined) {}

  /** The settings of a folder (a URI string), or of the workspace. */
  static of(folderUri?: string): Config {
    return new Config(folderUri ? vscode.Uri.parse(folderUri) : undefined);
  }

  /** Whether a configuration change touched `key`. */
  static affects(event: vscode.ConfigurationChangeEvent, key: SettingKey): boolean {
    return event.affectsConfiguration(settingId(key));
  }

  get terraformPath(): string {
    return this.get('terraformPath');
  }

  get terragruntPath(): string {
    return this.get('terragruntPath');
  }

  get parallelism(): number {
    return this.get('parallelism');
  }

  /** Hours (0 = no limit). */
  get planMaxAge(): number {
    return this.get('planMaxAge');
  }

  /** `planMaxAge` in milliseconds (0 = no limit). */
  get planMaxAgeMs(): number {
    return Math.max(0, this.planMaxAge) * 3_600_000;
  }

  /** Minutes (0 = off). */
  get driftCheckInterval(): number {
    return this.get('driftCheckInterval');
  }

  /** `driftCheckInterval` in milliseconds (0 = off). */
  get driftCheckIntervalMs(): number {
    return Math.max(0, this.driftCheckInterval) * 60_000;
  }

  get discoveryMode(): 'auto' | 'pattern' {
    return this.get('discovery.mode');
  }

  get discoveryPattern(): string {
    return this.get('discovery.pattern');
  }

  get discoveryExclude(): string[] {
    return this.get('discovery.exclude');
  }

  /**
   * A setting where the user set it (for the folder, the workspace or everywhere); undefined
   * when it is the default, so that `.terrace.yaml` decides.
   */
  explicit<K extends SettingKey>(key: K): SettingValue<K> | undefined {
    const inspected = this.section().inspect<SettingValue<K>>(key);
    return inspected?.workspaceFolderValue ?? inspected?.workspaceValue ?? inspected?.globalValue;
  }

  private get<K extends SettingKey>(key: K): SettingValue<K> {
    // package.json declares a default for every setting, so there is always a value.
    return this.section().get<SettingValue<K>>(key)!;
  }

  private section(): vscode.WorkspaceConfiguration {
    return vscode.workspace.getConfiguration('terrace', this.scope);
  }
}

/** Offers "Restart Server" when a setting that needs it changed. */
export function offerRestartOnChange(): vscode.Disposable {
  return vscode.workspace.onDidChangeConfiguration(async (event) => {
    const changed = requiresServerRestart.filter((key) => Config.affects(event, key));
    if (changed.length === 0) return;
    const action = await vscode.window.showInformationMessage(
      `Terrace: ${changed.map(settingId).join(', ')} takes effect once the language server restarts.`,
      'Restart Server',
    );
    if (action) await vscode.commands.executeCommand('terrace.restartServer');
  });
}
