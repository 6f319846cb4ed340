import { codicon, h, iconButton, toggleButton } from './dom';
import type { GraphIndex } from './graphIndex';
import type { ViewEditor } from './panelState';
import { plural } from './plural';

/** How far a focus reaches, in dependency steps: the choices the bar offers (null: all of it). */
const HOPS: readonly (number | null)[] = [1, 2, null];

/**
 * What narrows the drawing to part of the graph, as Nx's project graph does: a focus on one module
 * (what it depends on, what depends on it, one, two or all steps away), the paths between two selected
 * modules, and the modules hidden. The toolbar's buttons start the first two from the selection; while
 * one is on, the bar names it with its toggles and a button that ends it.
 */
export class FocusBar {
  /** "Focus on the selected module", shown while nothing is focused. */
  readonly target: HTMLButtonElement;
  /** "Paths between the two selected modules". */
  readonly pathsTarget: HTMLButtonElement;
  readonly element = h('div', { class: 'focus-bar', role: 'group', 'aria-label': 'Focus', hidden: true });
  /** The modules hidden, with a button that shows them again. */
  readonly hiddenChip = h('div', { class: 'focus-bar hidden-chip', role: 'group', hidden: true });

  constructor(
    private readonly editor: ViewEditor,
    onTarget: () => void,
    onPaths: () => void,
  ) {
    this.target = iconButton('target', 'Focus on the selected module (F)', onTarget);
    this.pathsTarget = iconButton('git-compare', 'Show the paths between the two selected modules (P)', onPaths);
  }

  /** The bar for the view just drawn, if its modules are still in the graph. */
  render(index: GraphIndex | undefined): void {
    const { focus, paths, hidden } = this.editor.options;
    const module = focus && index?.byId.get(focus.id);
    const between = paths && index?.byId.has(paths.from) && index.byId.has(paths.to) ? paths : null;
    this.element.hidden = !module && !between;
    this.target.hidden = !!module;
    this.hiddenChip.hidden = hidden.length === 0;
    if (hidden.length) {
      this.hiddenChip.replaceChildren(
        codicon('eye-closed'),
        h('span', { class: 'focus-name', title: hidden.join('\n') }, plural(hidden.length, 'module') + ' hidden'),
        iconButton('eye', 'Show the hidden modules', () => {
          this.editor.options.hidden = [];
          this.editor.redraw(true);
        }),
      );
    }
    if (focus && module) this.renderFocus(focus, module.id);
    else if (between) this.renderPaths(between);
  }

  private renderFocus(focus: NonNullable<ViewEditor['options']['focus']>, id: string): void {
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
    const hops = HOPS.map((step) => {
      const button = h(
        'button',
        {
          type: 'button',
          class: 'hops',
          'aria-pressed': String((focus.hops ?? null) === step),
          title: step === null ? 'Every module it reaches' : `Modules ${plural(step, 'step')} away`,
        },
        step === null ? 'All' : String(step),
      );
      button.addEventListener('click', () => {
        this.editor.options.focus = { ...focus, hops: step };
        this.editor.redraw(true);
      });
      return button;
    });
    this.element.replaceChildren(
      codicon('target'),
      h('span', { class: 'focus-name', title: id }, id.split('/').at(-1) ?? id),
      upstream,
      downstream,
      h('span', { class: 'hops-group', role: 'group', 'aria-label': 'How far' }, ...hops),
      iconButton('close', 'Show the whole graph (Escape)', () => this.clear()),
    );
  }

  private renderPaths(paths: { from: string; to: string }): void {
    const name = (id: string) => h('span', { class: 'focus-name', title: id }, id.split('/').at(-1) ?? id);
    this.element.replaceChildren(
      codicon('git-compare'),
      name(paths.from),
      codicon('arrow-both'),
      name(paths.to),
      iconButton('close', 'Show the whole graph (Escape)', () => this.clear()),
    );
  }

  /** Back to the whole graph; false when nothing was focused. */
  clear(): boolean {
    const options = this.editor.options;
    if (!options.focus && !options.paths) return false;
    options.focus = null;
    options.paths = null;
    this.editor.redraw(true);
    return true;
  }

  /** The target button works with one module selected, the paths button with two. */
  enableTargets(selectedModules: number): void {
    this.target.disabled = selectedModules !== 1;
    this.pathsTarget.disabled = selectedModules !== 2;
  }
}
