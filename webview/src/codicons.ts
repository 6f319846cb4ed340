// The icons the panel's buttons and lines show, as @vscode/codicons draws them: in the page itself, so that
// VS Code does not wait for a stylesheet and a font to load before it passes the page its first messages.
import arrowBoth from '@vscode/codicons/src/icons/arrow-both.svg';
import arrowLeft from '@vscode/codicons/src/icons/arrow-left.svg';
import arrowRight from '@vscode/codicons/src/icons/arrow-right.svg';
import chevronDown from '@vscode/codicons/src/icons/chevron-down.svg';
import chevronRight from '@vscode/codicons/src/icons/chevron-right.svg';
import chevronUp from '@vscode/codicons/src/icons/chevron-up.svg';
import close from '@vscode/codicons/src/icons/close.svg';
import collapseAll from '@vscode/codicons/src/icons/collapse-all.svg';
import diff from '@vscode/codicons/src/icons/diff.svg';
import error from '@vscode/codicons/src/icons/error.svg';
import expandAll from '@vscode/codicons/src/icons/expand-all.svg';
import exportIcon from '@vscode/codicons/src/icons/export.svg';
import eye from '@vscode/codicons/src/icons/eye.svg';
import eyeClosed from '@vscode/codicons/src/icons/eye-closed.svg';
import fileMedia from '@vscode/codicons/src/icons/file-media.svg';
import filter from '@vscode/codicons/src/icons/filter.svg';
import foldDown from '@vscode/codicons/src/icons/fold-down.svg';
import foldUp from '@vscode/codicons/src/icons/fold-up.svg';
import gitCompare from '@vscode/codicons/src/icons/git-compare.svg';
import info from '@vscode/codicons/src/icons/info.svg';
import listTree from '@vscode/codicons/src/icons/list-tree.svg';
import references from '@vscode/codicons/src/icons/references.svg';
import screenFull from '@vscode/codicons/src/icons/screen-full.svg';
import search from '@vscode/codicons/src/icons/search.svg';
import target from '@vscode/codicons/src/icons/target.svg';
import zoomIn from '@vscode/codicons/src/icons/zoom-in.svg';
import zoomOut from '@vscode/codicons/src/icons/zoom-out.svg';

/** Each icon's SVG (16 × 16, drawn in `currentColor`), by its codicon name. */
const CODICONS = {
  'arrow-both': arrowBoth,
  'arrow-left': arrowLeft,
  'arrow-right': arrowRight,
  'chevron-down': chevronDown,
  'chevron-right': chevronRight,
  'chevron-up': chevronUp,
  close,
  'collapse-all': collapseAll,
  diff,
  error,
  'expand-all': expandAll,
  export: exportIcon,
  eye,
  'eye-closed': eyeClosed,
  'file-media': fileMedia,
  filter,
  'fold-down': foldDown,
  'fold-up': foldUp,
  'git-compare': gitCompare,
  info,
  'list-tree': listTree,
  references,
  'screen-full': screenFull,
  search,
  target,
  'zoom-in': zoomIn,
  'zoom-out': zoomOut,
} as const;

export type CodiconName = keyof typeof CODICONS;

export function codiconSvg(name: CodiconName): string {
  return CODICONS[name];
}
