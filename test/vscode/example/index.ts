import { runSuite } from '../mochaSuite';

/** The suite run on a copy of examples/monorepo, the example the README shows. */
export function run(): Promise<void> {
  return runSuite([() => import('./exampleMonorepo.test')]);
}
