import { codicon, h, iconButton, toggleButton } from './dom';
import type { ViewEditor } from './panelState';
import type { ViewGraph } from './viewModel';

/** The toolbar's parts that others own: grouping, focus, the legend's toggle. */
export interface ToolbarParts {
  search: SearchBox;
  groupBy: HTMLElement;
  focusTarget: HTMLElement;
  pathsTarget: HTMLElement;
  focusBar: HTMLElement;
  hiddenChip: HTMLElement;
  affectedToggle: HTMLElement;
  affectedChip: HTMLElement;
  legendToggle: HTMLElement;
}

/** What the toolbar's own buttons do. */
export interface ToolbarActions {
  zoomBy(factor: number): void;
  fit(): void;
  export(format: 'svg' | 'png'): void;
}

/** The toolbar above the drawing: search, grouping and focus on the left; zoom, export and legend on the right. */
export function toolbar(parts: ToolbarParts, actions: ToolbarActions): HTMLElement {
  return h(
    'header',
    { class: 'toolbar', role: 'toolbar', 'aria-label': 'Graph' },
    parts.search.element,
    parts.groupBy,
    parts.focusTarget,
    parts.pathsTarget,
    parts.focusBar,
    parts.hiddenChip,
    parts.affectedToggle,
    parts.affectedChip,
    h('div', { class: 'spacer' }),
    iconButton('zoom-out', 'Zoom out (-)', () => actions.zoomBy(1 / 1.25)),
    iconButton('zoom-in', 'Zoom in (+)', () => actions.zoomBy(1.25)),
    iconButton('screen-full', 'Fit to view (0)', () => actions.fit()),
    h('span', { class: 'separator' }),
    iconButton('export', 'Export as SVG…', () => actions.export('svg')),
    iconButton('file-media', 'Export as PNG…', () => actions.export('png')),
    parts.legendToggle,
  );
}

/**
 * The search box: matches are highlighted (or, with the filter on, the only modules shown); Enter
 * goes to the next match, Shift+Enter to the previous one; `/` or Ctrl+F from anywhere comes here.
 */
export class SearchBox {
  readonly element: HTMLElement;
  private readonly input: HTMLInputElement;
  private readonly count = h('span', { class: 'search-count', 'aria-live': 'polite' });
  private readonly filter: HTMLButtonElement;

  constructor(
    private readonly editor: ViewEditor,
    onNext: (step: number) => void,
  ) {
    const input = h('input', {
      type: 'search',
      class: 'search-input',
      placeholder: 'Search modules',
      'aria-label': 'Search modules',
      spellcheck: 'false',
    });
    this.input = input;
    input.value = editor.options.search;
    input.addEventListener('input', () => this.changed());
    input.addEventListener('keydown', (event) => {
      if (event.key === 'Enter') {
        event.preventDefault();
        onNext(event.shiftKey ? -1 : 1);
      } else if (event.key === 'Escape' && input.value) {
        event.preventDefault();
        input.value = '';
        this.changed();
      }
    });
    this.filter = toggleButton('filter', 'Show only matching modules', (pressed) => {
      editor.options.filter = pressed;
      editor.redraw(true);
    });
    this.showFilter(editor.options.filter);
    this.element = h('div', { class: 'search' }, codicon('search'), input, this.count, this.filter);
    document.addEventListener('keydown', (event) => {
      if ((event.key === 'f' && (event.ctrlKey || event.metaKey)) || (event.key === '/' && !isTyping(event))) {
        event.preventDefault();
        input.focus();
        input.select();
      }
    });
  }

  /** Empties the box (its text only: the view options are the caller's). */
  clear(): void {
    this.input.value = '';
  }

  showFilter(on: boolean): void {
    this.filter.setAttribute('aria-pressed', String(on));
  }

  /** How many modules of the graph's `total` the search matches, or nothing without a search. */
  showCount(matches: ((id: string) => boolean) | null, view: ViewGraph, total: number): void {
    const count = this.count;
    if (matches) {
      const modules = view.nodes.reduce((sum, node) => sum + node.members.filter(matches).length, 0);
      count.textContent = modules ? `${modules} of ${total}` : 'No results';
      count.classList.toggle('no-results', modules === 0);
    } else {
      count.textContent = '';
    }
  }

  private changed(): void {
    this.editor.options.search = this.input.value;
    if (this.editor.options.filter) this.editor.redraw(true);
    else this.editor.highlight();
  }
}

function isTyping(event: KeyboardEvent): boolean {
  const target = event.target as HTMLElement | null;
  return !!target && (target.tagName === 'INPUT' || target.tagName === 'SELECT' || target.isContentEditable);
}
