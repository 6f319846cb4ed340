import { codicon, h, iconButton } from './dom';
import type { GraphIndex } from './graphIndex';
import type { ViewEditor } from './panelState';
import { plural } from './plural';
import { GROUP_COLOURS } from './render';
import { FOLDER_GROUPING, groupChoices, type ViewGraph, type ViewNode } from './viewModel';

/**
 * Grouping: the toolbar's "Group by" choice (Terraform Stacks, a path segment, or folders) and the bar
 * below the toolbar: a chip per group, each folded into one node or unfolded into its modules. Under
 * folder grouping any folder folds, at any depth: a folded node unfolds into its subfolders, folded in
 * turn, and the bar folds or unfolds the whole graph one depth at a time.
 */
export class GroupBar {
  /** The "Group by" choice, for the toolbar. */
  readonly chooser: HTMLElement;
  /** The bar of groups. */
  readonly element = h('div', { class: 'group-bar', role: 'toolbar', 'aria-label': 'Groups', hidden: true });
  private readonly select: HTMLSelectElement;
  private index: GraphIndex | undefined;

  constructor(private readonly editor: ViewEditor) {
    this.select = h('select', {
      class: 'group-by',
      'aria-label': 'Group by',
      title: 'Group modules by Stack, by a path segment or by folder',
    });
    this.select.addEventListener('change', () => {
      editor.options.groupBy = this.select.value || null;
      editor.options.collapsed = [];
      editor.redraw(true);
    });
    this.chooser = h('label', { class: 'group-label' }, codicon('list-tree'), this.select);
  }

  /** A new graph: what it can be grouped by; a grouping it no longer has is dropped. */
  graphChanged(index: GraphIndex): void {
    this.index = index;
    const options = this.editor.options;
    const choices = groupChoices(index);
    if (options.groupBy && !choices.includes(options.groupBy)) {
      options.groupBy = null;
      options.collapsed = [];
    }
    this.select.replaceChildren(
      h('option', { value: '' }, 'No groups'),
      ...choices.map((choice) => h('option', { value: choice }, `Group by ${choice}`)),
    );
    this.select.value = options.groupBy ?? '';
    this.select.disabled = choices.length === 0;
  }

  /** Folds an unfolded group or folder, unfolds a folded one (a folder into its subfolders, folded). */
  toggle(name: string): void {
    const options = this.editor.options;
    const collapsed = new Set(options.collapsed);
    const tree = this.index?.tree;
    if (collapsed.has(name)) {
      collapsed.delete(name);
      if (options.groupBy === FOLDER_GROUPING && tree) for (const child of tree.childFolds(name)) collapsed.add(child);
    } else {
      // What was folded inside it is part of the one node now.
      for (const inner of collapsed) if (inner.startsWith(`${name}/`)) collapsed.delete(inner);
      collapsed.add(name);
    }
    options.collapsed = [...collapsed];
    this.editor.redraw(false);
  }

  /** Folds the folder that holds `node` (a module, or a folded folder), switching to folder grouping. */
  foldParent(node: ViewNode | undefined): void {
    const tree = this.index?.tree;
    if (!node || !tree) return;
    const path = node.fold ?? node.id;
    const parent = path.split('/').slice(0, -1).join('/');
    // The folders every module shares are not folded: the whole graph would be one node.
    if (parent.split('/').length <= tree.sharedDepth || parent === '') return;
    const options = this.editor.options;
    if (options.groupBy !== FOLDER_GROUPING) {
      options.groupBy = FOLDER_GROUPING;
      options.collapsed = [];
      this.select.value = FOLDER_GROUPING;
    }
    // A drawn node's folder is never folded itself (the node would not be drawn): this folds it.
    this.toggle(parent);
  }

  /** Folds the graph by folder at `depth` below the folders every module shares; past the deepest, unfolds it all. */
  foldAt(depth: number): void {
    const tree = this.index?.tree;
    if (!tree) return;
    this.editor.options.groupBy = FOLDER_GROUPING;
    this.editor.options.collapsed = depth > tree.maxDepth ? [] : tree.foldsAt(Math.max(1, depth));
    this.select.value = FOLDER_GROUPING;
    this.editor.redraw(true);
  }

  /** How deep the folder folds go now: the deepest folded folder's depth; past the deepest when none. */
  private foldDepth(): number {
    const tree = this.index?.tree;
    if (!tree) return 0;
    const depths = this.editor.options.collapsed.map((folder) => folder.split('/').length - tree.sharedDepth);
    return depths.length ? Math.max(...depths) : tree.maxDepth + 1;
  }

  /** The bar for the view just drawn: a chip per group, and fold or unfold all. */
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
          title: `${group.collapsed ? 'Unfold' : 'Fold'} ${group.name} (${plural(group.modules, 'module')})`,
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
    const folders = this.editor.options.groupBy === FOLDER_GROUPING;
    const depth = this.foldDepth();
    const foldButtons = folders
      ? [
          iconButton('fold-up', 'Fold one folder level more', () => this.foldAt(depth - 1)),
          iconButton('fold-down', 'Unfold one folder level more', () => this.foldAt(depth + 1)),
        ]
      : [];
    bar.replaceChildren(
      h('span', { class: 'bar-label' }, `By ${this.editor.options.groupBy}:`),
      ...chips,
      ...foldButtons,
      iconButton('expand-all', 'Unfold everything', () => setAll(false)),
      iconButton('collapse-all', folders ? 'Fold every top folder' : 'Fold every group', () =>
        folders ? this.foldAt(1) : setAll(true),
      ),
    );
  }
}
