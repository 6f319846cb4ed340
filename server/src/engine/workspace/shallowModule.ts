import { type ObjectValue, shallowValue, type Unknown } from '../evaluation';
import type { EvaluatedModule } from './evaluatedModule';

/**
 * `module` with the configurations of its reads and of its backend made shallow (see `shallowValue`),
 * in place: matching walks them recursively, and one nested thousands deep took the whole analysis
 * down there. A part past the depth is unknown, so a read or a backend whose address needs it is
 * unresolved, saying so, and one whose address does not keeps its edges.
 */
export function shallowModule(module: EvaluatedModule): EvaluatedModule {
  for (const reference of module.references) {
    reference.config = shallowConfig(reference.config);
    const other = reference.anyWorkspace;
    if (other) reference.anyWorkspace = { ...other, config: shallowConfig(other.config) };
  }
  for (const config of module.backend?.configs ?? []) config.config = shallowConfig(config.config);
  return module;
}

function shallowConfig(config: ObjectValue | Unknown): ObjectValue | Unknown {
  return shallowValue(config) as ObjectValue | Unknown;
}
