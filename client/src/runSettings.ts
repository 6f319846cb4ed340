import * as vscode from 'vscode';
import type { RunSettings } from '../../runner/src';
import type { RunTargetsResult } from '../../server/src/protocol';

/**
 * The settings of Run Plans for a folder: the editor's `terrace.*` settings where the user set
 * them, else the `execution` section of the folder's `.terrace.yaml`, else the defaults.
 */
export function runSettingsFor(
  folderUri: string,
  execution: Extract<RunTargetsResult, { kind: 'targets' }>['execution'],
  command: string,
  parallelism?: number,
): RunSettings {
  const config = vscode.workspace.getConfiguration('terrace', vscode.Uri.parse(folderUri));
  const terraformPath = explicit<string>(config, 'terraformPath');
  return {
    binary: terraformPath?.trim() || execution.binary,
    binarySetting: terraformPath
      ? 'terrace.terraformPath'
      : 'terrace.terraformPath (or execution.binary in .terrace.yaml)',
    parallelism: parallelism ?? explicit<number>(config, 'parallelism') ?? execution.parallelism,
    initArgs: execution.initArgs,
    planArgs: execution.planArgs,
    env: execution.env,
    retries: execution.retries,
    init: execution.init,
    command,
  };
}

/** `terrace.planMaxAge`, in milliseconds (0 = no limit). */
export function planMaxAgeMs(folderUri?: string): number {
  const hours = vscode.workspace
    .getConfiguration('terrace', folderUri ? vscode.Uri.parse(folderUri) : undefined)
    .get<number>('planMaxAge', 24);
  return Math.max(0, hours) * 3_600_000;
}

/** `terrace.driftCheckInterval`, in milliseconds (0 = off). */
export function driftCheckIntervalMs(): number {
  const minutes = vscode.workspace.getConfiguration('terrace').get<number>('driftCheckInterval', 0);
  return Math.max(0, minutes) * 60_000;
}

/** A setting's value where the user (or the workspace) set it; undefined when it is the default. */
function explicit<T>(config: vscode.WorkspaceConfiguration, key: string): T | undefined {
  const inspected = config.inspect<T>(key);
  return inspected?.workspaceFolderValue ?? inspected?.workspaceValue ?? inspected?.globalValue;
}
