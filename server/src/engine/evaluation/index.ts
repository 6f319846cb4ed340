/** Values and evaluation: HCL expressions evaluated to values, Terraform's functions, locals in dependency order. */
export { type EvalScope, evaluate } from './evaluate';
export { type ExpressionReference, expressionReferences, referencedNames } from './expressionReferences';
export {
  callRead,
  FILE_FUNCTIONS,
  type FileRead,
  type FolderFiles,
  fileCalls,
  pathTarget,
  ReadSet,
  type ReadTarget,
  readKey,
} from './fileReads';
export { folderRelative } from './folderRelative';
export { formatValue } from './formatVerbs';
export { type ExtraFunctions, withFunctions } from './functions';
export { evaluateNamed } from './locals';
export {
  type Hole,
  hole,
  holesOf,
  isHole,
  literalText,
  showTemplate,
  type Template,
  type TemplatePart,
  template,
} from './textTemplate';
export {
  findUnknown,
  isObjectValue,
  isUnknown,
  type ObjectValue,
  shallowValue,
  type Unknown,
  unknown,
  unknownText,
  type Value,
} from './value';
export { catchValue, formatNumber, objectOrUnknown, stringOrUnknown, toNumberValue } from './valueConversion';
