import { runSuite } from '../mochaSuite';

/**
 * One fresh window of the floor's or Terrace's (the runner alternates them on one folder): how long its first
 * problems and its webview's drawing take, for Terrace's share over VS Code's own floor (see windowShare.test.ts).
 */
export function run(): Promise<void> {
  return runSuite([() => import('./windowShare.test')]);
}
