import { h } from './dom';
import type { GraphIndex } from './graphIndex';
import { plural } from './plural';
import type { ViewGraph } from './viewModel';

/**
 * What the panel says about the graph and about what it is doing: the status line at the bottom,
 * its activity note, and the progress bar over the drawing while a layout or an export runs.
 */
export class StatusLine {
  readonly element: HTMLElement;
  readonly progress: HTMLElement;
  private readonly status = h('span', { class: 'status-text' });
  private readonly activity = h('span', { class: 'activity', 'aria-live': 'polite' });

  /** `busyTarget` carries `aria-busy` while something runs. */
  constructor(private readonly busyTarget: HTMLElement) {
    this.element = h('footer', { class: 'status' }, this.status, this.activity);
    this.progress = h(
      'div',
      { class: 'progress', role: 'progressbar', 'aria-label': 'Laying out', hidden: true },
      h('div', { class: 'progress-bit' }),
    );
  }

  busy(text: string): void {
    this.progress.hidden = false;
    this.activity.textContent = text;
    this.busyTarget.setAttribute('aria-busy', 'true');
  }

  idle(): void {
    this.progress.hidden = true;
    this.busyTarget.removeAttribute('aria-busy');
  }

  /** The activity note alone (a failure, say), or none. */
  say(text: string): void {
    this.activity.textContent = text;
  }

  /**
   * The graph's counts, and how much of it the view shows. Levels are counted as `terrace levels` counts
   * them: a module in a cycle, or one that waits for one, has none, and is counted apart.
   */
  show(index: GraphIndex, view: ViewGraph): void {
    const graph = index.graph;
    const parts = [
      plural(graph.modules.length, 'module'),
      plural(graph.edges.length, 'dependency', 'dependencies'),
      plural(index.levelCount, 'level'),
    ];
    if (graph.cycles.length) {
      const levelless = graph.modules.filter((module) => module.inCycle || module.waitsForCycle).length;
      parts.push(plural(graph.cycles.length, 'cycle'), `${plural(levelless, 'module')} with no level`);
    }
    const problems = graph.modules.reduce((sum, module) => sum + (module.unresolved ?? 0) + (module.ambiguous ?? 0), 0);
    if (problems) parts.push(plural(problems, 'unresolved reference'));
    const shown = view.nodes.reduce((sum, node) => sum + node.members.length, 0);
    if (shown !== graph.modules.length) parts.push(`showing ${shown}`);
    this.status.textContent = parts.join(' · ');
    this.activity.textContent = '';
  }
}
