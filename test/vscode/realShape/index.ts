import { runSuite } from '../mochaSuite';

/**
 * The suite run with Terrace installed from its VSIX on a generated Terragrunt live repository of 300
 * units, or of 3,000 (test/realShapes; the runner says which): the panel's timings where users wait,
 * and the README's pictures of 300 units.
 */
export function run(): Promise<void> {
  return runSuite([() => import('./liveRepository.test')]);
}
