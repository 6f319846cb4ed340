import type { RunSettings } from '../../runner/src';
import type { RunTargetsResult } from '../../server/src/protocol';
import { Config, settingId } from './config';

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
  const config = Config.of(folderUri);
  const terraformPath = config.explicit('terraformPath');
  const terragruntPath = config.explicit('terragruntPath');
  return {
    binary: terraformPath?.trim() || execution.binary,
    binarySetting: terraformPath
      ? settingId('terraformPath')
      : execution.binary === 'tofu' && !execution.binaryChosen
        ? `${settingId('terraformPath')} (this workspace is OpenTofu's, so Terrace runs tofu; execution.binary in .terrace.yaml chooses another)`
        : `${settingId('terraformPath')} (or execution.binary in .terrace.yaml)`,
    terragrunt: terragruntPath?.trim() || execution.terragrunt,
    terragruntSetting: terragruntPath
      ? settingId('terragruntPath')
      : `${settingId('terragruntPath')} (or execution.terragrunt in .terrace.yaml)`,
    parallelism: parallelism ?? config.explicit('parallelism') ?? execution.parallelism,
    initArgs: execution.initArgs,
    planArgs: execution.planArgs,
    varFiles: execution.varFiles,
    env: execution.env,
    retries: execution.retries,
    init: execution.init,
    command,
  };
}
