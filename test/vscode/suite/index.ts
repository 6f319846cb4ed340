import path from 'node:path';
import Mocha from 'mocha';

/** Loaded by VS Code as `extensionTestsPath`; runs the suite and prints `N passed, N failed, N skipped`. */
export function run(): Promise<void> {
  const mocha = new Mocha({ ui: 'tdd', timeout: 60_000, color: false });
  mocha.addFile(path.join(__dirname, 'index.js'));
  return new Promise((resolve, reject) => {
    const runner = mocha.run((failures) => {
      const stats = runner.stats;
      console.log(`${stats?.passes ?? 0} passed, ${stats?.failures ?? 0} failed, ${stats?.pending ?? 0} skipped`);
      if (failures > 0) reject(new Error(`${failures} tests failed`));
      else resolve();
    });
  });
}
