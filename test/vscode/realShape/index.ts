import { runSuite } from '../mochaSuite';

/**
 * The suite run with Terrace installed from its VSIX on a generated Terragrunt live repository of 300
 * units (test/realShapes): the panel's timings where users wait, and the README's pictures of it.
 */
export function run(): Promise<void> {
  return runSuite([() => import('./liveRepository.test')]);
}
