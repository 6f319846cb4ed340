import { type AnalysisOptions, loadAnalysisOptions } from '../config';
import type { AnalysisResult } from './analysisResult';
import { WorkspaceAnalysis } from './workspaceAnalysis';

/**
 * One-shot analysis of a folder with its `.terrace.yaml` (or the given options), as fast as it
 * goes: files with nothing the graph reads are skimmed, their syntax unchecked (see `loadWorkspace`).
 */
export async function analyzeDirectory(root: string, options?: AnalysisOptions): Promise<AnalysisResult> {
  const analysis = new WorkspaceAnalysis(root, options ?? (await loadAnalysisOptions(root)));
  await analysis.load();
  return analysis.result();
}

/**
 * A folder analysed for a command that answers once (`validate`, `generate`, `plan`): every file
 * read, and every `.tf` file's syntax checked, as Terraform would (the editor checks the skimmed
 * files after its first diagnostics instead).
 */
export async function loadWorkspace(root: string, options: AnalysisOptions): Promise<WorkspaceAnalysis> {
  const analysis = new WorkspaceAnalysis(root, options);
  await analysis.load();
  await analysis.checkSkimmedFiles();
  return analysis;
}
