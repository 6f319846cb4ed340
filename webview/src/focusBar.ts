import { codicon, h, iconButton, toggleButton } from './dom';
import type { ViewEditor } from './panelState';
import type { GraphIndex } from './viewModel';

/**
 * Focus on one module: the toolbar button that focuses on the selected module, and in its place
 * while focused, the module's name with toggles for what it depends on (upstream) and what depends
 * on it (downstream).
 */
export class FocusBar {
  /** "Focus on the selected module", shown while nothing is focused. */
  readonly target: HTMLButtonElement;
  readonly element = h('div', { class: 'focus-bar', role: 'group', 'aria-label': 'Focus', hidden: true });

  constructor(
    private readonly editor: ViewEditor,
    onTarget: () => void,
  ) {
    this.target = iconButton('target', 'Focus on the selected module (F)', onTarget);
  }

  /** The bar for the focus of the view just drawn, if its module is still in the graph. */
  render(index: GraphIndex | undefined): void {
    const focus = this.editor.options.focus;
    const module = focus && index?.byId.get(focus.id);
    this.element.hidden = !module;
    this.target.hidden = !!module;
    if (!focus || !module) return;
    const upstream = toggleButton('arrow-left', 'Show what it depends on (upstream)', (pressed) => {
      this.editor.options.focus = { ...focus, upstream: pressed };
      this.editor.redraw(true);
    });
    upstream.setAttribute('aria-pressed', String(focus.upstream));
    upstream.classList.add('focus-upstream');
    const downstream = toggleButton('arrow-right', 'Show what depends on it (downstream)', (pressed) => {
      this.editor.options.focus = { ...focus, downstream: pressed };
      this.editor.redraw(true);
    });
    downstream.setAttribute('aria-pressed', String(focus.downstream));
    downstream.classList.add('focus-downstream');
    this.element.replaceChildren(
      codicon('target'),
      h('span', { class: 'focus-name', title: module.id }, module.id.split('/').at(-1) ?? module.id),
      upstream,
      downstream,
      iconButton('close', 'Show the whole graph (Escape)', () => this.clear()),
    );
  }

  /** Back to the whole graph; false when nothing was focused. */
  clear(): boolean {
    if (!this.editor.options.focus) return false;
    this.editor.options.focus = null;
    this.editor.redraw(true);
    return true;
  }

  /** The target button works with one module selected. */
  enableTarget(enabled: boolean): void {
    this.target.disabled = !enabled;
  }
}
