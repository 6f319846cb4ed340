import { DEFAULT_VIEW, type ViewOptions } from './viewModel';
import type { Transform } from './viewport';

/**
 * What the panel remembers across being hidden and VS Code reloading (`getState`/`setState`; the
 * host's serializer reads `folderUri` to know which graph to show again).
 */
export interface PanelState {
  folderUri?: string;
  view: ViewOptions;
  /** Selected node ids. */
  selected: string[];
  /** Pan and zoom; null until the first drawing. */
  transform: Transform | null;
  legend: boolean;
}

/** What a part of the toolbar needs to change the view: the options it edits, and a new drawing of them. */
export interface ViewEditor {
  /** The panel's view options, edited in place. */
  readonly options: ViewOptions;
  /** Lays out and draws the view again; `refit` fits the new drawing to the panel. */
  redraw(refit: boolean): void;
  /** Shows the selection and the search matches again and remembers them, without a new layout. */
  highlight(): void;
}

export function restoreState(saved: unknown): PanelState {
  const state = (saved && typeof saved === 'object' ? saved : {}) as Partial<PanelState>;
  const view = { ...DEFAULT_VIEW, ...(state.view ?? {}) };
  return {
    folderUri: typeof state.folderUri === 'string' ? state.folderUri : undefined,
    view: {
      groupBy: typeof view.groupBy === 'string' ? view.groupBy : null,
      collapsed: Array.isArray(view.collapsed) ? view.collapsed.filter((name) => typeof name === 'string') : [],
      focus:
        view.focus && typeof view.focus.id === 'string'
          ? {
              id: view.focus.id,
              upstream: !!view.focus.upstream,
              downstream: !!view.focus.downstream,
              hops: typeof view.focus.hops === 'number' && view.focus.hops > 0 ? view.focus.hops : null,
            }
          : null,
      paths:
        view.paths && typeof view.paths.from === 'string' && typeof view.paths.to === 'string'
          ? { from: view.paths.from, to: view.paths.to }
          : null,
      hidden: Array.isArray(view.hidden) ? view.hidden.filter((id) => typeof id === 'string') : [],
      search: typeof view.search === 'string' ? view.search : '',
      filter: !!view.filter,
    },
    selected: Array.isArray(state.selected) ? state.selected.filter((id) => typeof id === 'string') : [],
    transform:
      state.transform && [state.transform.x, state.transform.y, state.transform.k].every(Number.isFinite)
        ? state.transform
        : null,
    // Folded until asked for: unfolded it takes a good part of a panel beside an editor.
    legend: state.legend ?? false,
  };
}
