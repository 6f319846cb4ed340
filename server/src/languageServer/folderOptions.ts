import { type AnalysisOptions, defaultOptions, loadAnalysisOptions } from '../engine/config';
import type { ReceivedSettings } from './editorSettings';

/**
 * A folder's analysis options: the defaults, then the editor's settings, then the folder's .terrace.yaml (shared
 * with CI), then the environment chosen; git asked only in a trusted workspace.
 */
export async function folderOptions(
  root: string,
  settings: ReceivedSettings,
  trusted: boolean,
  environment: string | undefined,
): Promise<AnalysisOptions> {
  const editor = settings.discovery ?? {};
  const base = defaultOptions();
  if (editor.mode) base.discovery.mode = editor.mode;
  if (editor.pattern) base.discovery.pattern = editor.pattern;
  if (editor.exclude) base.discovery.exclude = editor.exclude;
  const options = await loadAnalysisOptions(root, base);
  options.discovery.askGit = trusted;
  return { ...options, environment };
}
