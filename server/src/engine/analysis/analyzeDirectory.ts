import { type AnalysisOptions, loadAnalysisOptions } from '../config';
import { type AnalysisResult, WorkspaceAnalysis } from './workspaceAnalysis';

/** One-shot analysis of a folder with its `.terrace.yaml` (or the given options): the CLI's entry. */
export async function analyzeDirectory(root: string, options?: AnalysisOptions): Promise<AnalysisResult> {
  const analysis = new WorkspaceAnalysis(root, options ?? (await loadAnalysisOptions(root)));
  await analysis.load();
  return analysis.result();
}
