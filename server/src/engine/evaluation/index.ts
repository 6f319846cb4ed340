/** Values and evaluation: HCL expressions evaluated to values, Terraform's functions, locals in dependency order. */
export { type EvalScope, evaluate } from './evaluate';
export { expressionReferences, referencedNames } from './expressionReferences';
export { formatValue } from './functions';
export { evaluateNamed } from './locals';
export { findUnknown, isObjectValue, isUnknown, type ObjectValue, type Unknown, unknown, type Value } from './value';
export { formatNumber } from './valueConversion';
