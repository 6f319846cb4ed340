import { runSuite } from '../mochaSuite';

/**
 * The suite run with Terrace installed from its VSIX on a generated monorepo of real shape
 * (test/realShapes; the runner says which): a Terragrunt live repository of 300 units or of 3,000
 * (the panel's timings where users wait, and the README's pictures of 300 units), or a plain
 * monorepo of 50 roots (a fresh window's start-up and the panel's timings on a small graph).
 */
export function run(): Promise<void> {
  return runSuite([
    process.env.TERRACE_REAL_SHAPE === 'plain-subscriptions'
      ? () => import('./plainRepository.test')
      : () => import('./liveRepository.test'),
  ]);
}
