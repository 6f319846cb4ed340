import { codicon, h } from './dom';
import { plural } from './plural';

/** The banner above the drawing listing the dependency cycles; a click on one selects its modules. */
export class CyclesBanner {
  readonly element = h('div', { class: 'banner cycles', role: 'alert', hidden: true });

  constructor(private readonly onSelect: (cycle: string[]) => void) {}

  show(cycles: string[][]): void {
    const banner = this.element;
    banner.hidden = cycles.length === 0;
    if (banner.hidden) return;
    const entries = cycles.map((cycle) => {
      const button = h(
        'button',
        { type: 'button', class: 'cycle-entry', title: 'Select the modules of this cycle' },
        cycle.join(' → '),
      );
      button.addEventListener('click', () => this.onSelect(cycle));
      return h('li', {}, button);
    });
    banner.replaceChildren(
      codicon('error'),
      h(
        'span',
        { class: 'banner-title' },
        `${plural(cycles.length, 'dependency cycle')}: nothing in a cycle can be planned or applied until it is broken.`,
      ),
      h('ul', {}, ...entries),
    );
  }
}
