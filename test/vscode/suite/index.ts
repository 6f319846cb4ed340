import { runSuite } from '../mochaSuite';

/**
 * The suite run with this repository as the extension under development. List every `*.test.ts` of this
 * folder here (the bundle cannot find them by file name).
 */
export function run(): Promise<void> {
  return runSuite([
    () => import('./activation.test'),
    () => import('./commands.test'),
    () => import('./languageFeatures.test'),
    () => import('./pipeline.test'),
    () => import('./graphPanel.test'),
    () => import('./runPlans.test'),
    () => import('./config.test'),
    () => import('./serverReadiness.test'),
    () => import('./environments.test'),
    () => import('./terragrunt.test'),
    () => import('./stacks.test'),
    // Last: the roots it adds stay in the graph after it (see the suite).
    () => import('./manyProblems.test'),
  ]);
}
