import { runSuite } from '../mochaSuite';

/** The suite run in a workspace that VS Code has not trusted (Restricted Mode), which it trusts halfway. */
export function run(): Promise<void> {
  return runSuite([() => import('./restrictedMode.test')]);
}
