import { writeFileSync } from 'node:fs';
import Mocha from 'mocha';

/**
 * The suite's test modules: list every `*.test.ts` of this folder here. esbuild bundles this file and these
 * modules into one script, so mocha cannot load them by file name: `run` sets up mocha's `suite`/`test`
 * globals first, then evaluates each module.
 */
const testModules: (() => Promise<unknown>)[] = [
  () => import('./activation.test'),
  () => import('./commands.test'),
  () => import('./languageFeatures.test'),
  () => import('./pipeline.test'),
  () => import('./graphPanel.test'),
  () => import('./runPlans.test'),
];

export interface SuiteResults {
  passed: number;
  failed: number;
  skipped: number;
  failures: { title: string; error: string }[];
}

/**
 * Loaded by VS Code as `extensionTestsPath`: runs the suite in the extension host, prints
 * `N passed, N failed, N skipped`, and writes the counts as JSON to `$TERRACE_VSCODE_RESULTS` when set.
 * Rejects when a test failed, which makes VS Code exit with a non-zero code.
 */
export async function run(): Promise<void> {
  let results: SuiteResults;
  try {
    results = await runMocha();
  } catch (error) {
    // The suite could not even run (a test module threw while loading): say so as one failure.
    const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
    console.error(`the suite could not run: ${message}`);
    results = { passed: 0, failed: 1, skipped: 0, failures: [{ title: 'loading the suite', error: message }] };
  }
  console.log(`${results.passed} passed, ${results.failed} failed, ${results.skipped} skipped`);
  const resultsFile = process.env.TERRACE_VSCODE_RESULTS;
  if (resultsFile) writeFileSync(resultsFile, JSON.stringify(results, null, 2));
  if (results.failed > 0 || results.passed === 0) {
    throw new Error(`${results.failed} failed, ${results.passed} passed`);
  }
}

async function runMocha(): Promise<SuiteResults> {
  const mocha = new Mocha({ ui: 'tdd', timeout: 30_000, color: false, reporter: 'spec' });
  const grep = process.env.TERRACE_VSCODE_GREP;
  if (grep) mocha.grep(grep);
  mocha.suite.emit(Mocha.Suite.constants.EVENT_FILE_PRE_REQUIRE, globalThis, 'terrace-vscode-suite', mocha);
  for (const load of testModules) await load();

  const failures: SuiteResults['failures'] = [];
  const stats = await new Promise<Mocha.Stats | undefined>((resolve) => {
    const runner = mocha.run(() => resolve(runner.stats));
    runner.on(Mocha.Runner.constants.EVENT_TEST_FAIL, (test, error: Error) => {
      failures.push({ title: test.fullTitle(), error: String(error?.message ?? error) });
    });
  });
  return { passed: stats?.passes ?? 0, failed: stats?.failures ?? 0, skipped: stats?.pending ?? 0, failures };
}
