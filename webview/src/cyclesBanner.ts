import { codicon, h } from './dom';
import { plural } from './plural';

/**
 * The banner above the drawing that says there are dependency cycles: one line with their count,
 * unfolding into the list of cycles (a click on one selects its modules). Folded by default: a graph
 * with many cycles would otherwise give the banner a good part of the panel's height.
 */
export class CyclesBanner {
  readonly element = h('div', { class: 'banner cycles', role: 'alert', hidden: true });
  private unfolded = false;

  constructor(private readonly onSelect: (cycle: string[]) => void) {}

  show(cycles: string[][]): void {
    const banner = this.element;
    banner.hidden = cycles.length === 0;
    if (banner.hidden) return;
    const list = h('ul', { class: 'cycle-list', id: 'cycle-list', hidden: !this.unfolded });
    list.append(
      ...cycles.map((cycle) => {
        const button = h(
          'button',
          { type: 'button', class: 'cycle-entry', title: 'Select the modules of this cycle' },
          cycle.join(' → '),
        );
        button.addEventListener('click', () => this.onSelect(cycle));
        return h('li', {}, button);
      }),
    );
    const toggle = h(
      'button',
      {
        type: 'button',
        class: 'banner-toggle',
        'aria-expanded': String(this.unfolded),
        'aria-controls': 'cycle-list',
      },
      codicon(this.unfolded ? 'chevron-up' : 'chevron-down'),
      this.unfolded ? 'Hide' : 'Show',
    );
    toggle.addEventListener('click', () => {
      this.unfolded = !this.unfolded;
      this.show(cycles);
    });
    banner.replaceChildren(
      h(
        'div',
        { class: 'banner-line' },
        codicon('error'),
        h(
          'span',
          {
            class: 'banner-title',
            title: 'Nothing in a cycle can be planned or applied until it is broken.',
          },
          `${plural(cycles.length, 'dependency cycle')}: nothing in a cycle can be planned or applied until it is broken.`,
        ),
        toggle,
      ),
      list,
    );
  }
}
