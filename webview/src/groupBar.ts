import type { GraphModel } from '../../server/src/protocol';
import { codicon, h, iconButton } from './dom';
import type { ViewEditor } from './panelState';
import { plural } from './plural';
import { GROUP_COLOURS } from './render';
import { buildView, type GraphIndex, groupChoices, STACK_GROUPING, type ViewGraph } from './viewModel';

/** Past this many modules a new panel starts with its groups collapsed. */
export const GROUP_THRESHOLD = 400;

/**
 * Grouping: the toolbar's "Group by" choice (a path segment: service, environment…) and the bar of
 * groups below the toolbar, each collapsed into one node or expanded into its modules.
 */
export class GroupBar {
  /** The "Group by" choice, for the toolbar. */
  readonly chooser: HTMLElement;
  /** The bar of groups. */
  readonly element = h('div', { class: 'group-bar', role: 'toolbar', 'aria-label': 'Groups', hidden: true });
  private readonly select: HTMLSelectElement;

  constructor(private readonly editor: ViewEditor) {
    this.select = h('select', {
      class: 'group-by',
      'aria-label': 'Group by',
      title: 'Group modules by a path segment',
    });
    this.select.addEventListener('change', () => {
      editor.options.groupBy = this.select.value || null;
      editor.options.collapsed = [];
      editor.redraw(true);
    });
    this.chooser = h('label', { class: 'group-label' }, codicon('list-tree'), this.select);
  }

  /** A new graph: the segments it can be grouped by; a big graph in a new panel starts collapsed. */
  graphChanged(graph: GraphModel, index: GraphIndex, newPanel: boolean): void {
    const options = this.editor.options;
    const choices = groupChoices(graph);
    if (options.groupBy && !choices.includes(options.groupBy)) {
      options.groupBy = null;
      options.collapsed = [];
    }
    if (newPanel && graph.modules.length > GROUP_THRESHOLD && choices.length) {
      // A big graph starts collapsed by its first segment (the service) and lays out only that.
      const groupBy = choices[0]!;
      options.groupBy = groupBy;
      options.collapsed = buildView(index, { ...options, groupBy, collapsed: [] }).groups.map((group) => group.name);
    } else if (newPanel && choices[0] === STACK_GROUPING) {
      // Terraform Stacks start drawn as what they are: a box around each Stack's components.
      options.groupBy = STACK_GROUPING;
      options.collapsed = [];
    }
    this.select.replaceChildren(
      h('option', { value: '' }, 'No groups'),
      ...choices.map((choice) => h('option', { value: choice }, `Group by ${choice}`)),
    );
    this.select.value = options.groupBy ?? '';
    this.select.disabled = choices.length === 0;
  }

  /** Collapses an expanded group, expands a collapsed one. */
  toggle(name: string): void {
    const collapsed = new Set(this.editor.options.collapsed);
    if (collapsed.has(name)) collapsed.delete(name);
    else collapsed.add(name);
    this.editor.options.collapsed = [...collapsed];
    this.editor.redraw(false);
  }

  /** The bar for the view just drawn: a chip per group, and expand all / collapse all. */
  render(view: ViewGraph): void {
    const bar = this.element;
    bar.hidden = view.groups.length === 0;
    if (bar.hidden) return;
    const chips = view.groups.map((group, index) => {
      const chip = h(
        'button',
        {
          type: 'button',
          class: 'group-chip',
          'aria-expanded': String(!group.collapsed),
          title: `${group.collapsed ? 'Expand' : 'Collapse'} ${group.name} (${plural(group.modules, 'module')})`,
        },
        codicon(group.collapsed ? 'chevron-right' : 'chevron-down'),
        h('span', { class: `swatch group-colour-${index % GROUP_COLOURS}` }),
        `${group.name}`,
        h('span', { class: 'chip-count' }, String(group.modules)),
      );
      chip.addEventListener('click', () => this.toggle(group.name));
      return chip;
    });
    const setAll = (collapse: boolean) => {
      this.editor.options.collapsed = collapse ? view.groups.map((group) => group.name) : [];
      this.editor.redraw(true);
    };
    bar.replaceChildren(
      h('span', { class: 'bar-label' }, `By ${this.editor.options.groupBy}:`),
      ...chips,
      iconButton('expand-all', 'Expand all groups', () => setAll(false)),
      iconButton('collapse-all', 'Collapse all groups', () => setAll(true)),
    );
  }
}
