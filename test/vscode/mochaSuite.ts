import { writeFileSync } from 'node:fs';
import Mocha from 'mocha';

export interface SuiteResults {
  passed: number;
  failed: number;
  skipped: number;
  failures: { title: string; error: string }[];
}

/**
 * What a suite's `extensionTestsPath` script runs inside the extension host: `testModules` under mocha,
 * then `N passed, N failed, N skipped` on the console and the counts as JSON in `$TERRACE_VSCODE_RESULTS`
 * when set. Rejects when a test failed, which makes VS Code exit with a non-zero code.
 *
 * esbuild bundles the entry and its test modules into one script, so mocha cannot load them by file name:
 * mocha's `suite`/`test` globals are set up first, then each module is evaluated.
 */
export async function runSuite(testModules: (() => Promise<unknown>)[]): Promise<void> {
  let results: SuiteResults;
  try {
    results = await runMocha(testModules);
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

async function runMocha(testModules: (() => Promise<unknown>)[]): Promise<SuiteResults> {
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
