import { version } from '../../package.json';

/**
 * This Terrace's version, from its package (outside the engine, which is given it: a pipeline's gate carries it): a pipeline's jobs that run the CLI (`terrace gate`) refuse another
 * version than the one that generated them, so the decision in CI is the one the generator meant.
 */
export const TERRACE_VERSION: string = version;
