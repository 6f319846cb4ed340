import { runSuite } from '../mochaSuite';

/** The suite run with Terrace installed from its VSIX (the extension under development is an empty one). */
export function run(): Promise<void> {
  return runSuite([() => import('./installedExtension.test')]);
}
