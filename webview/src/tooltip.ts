import type { PanelProblem } from '../../server/src/protocol';
import { h } from './dom';
import type { GraphIndex } from './graphIndex';
import { RUN_DISPLAY_NAMES } from './runDisplay';
import { columnTitle } from './viewColumns';
import type { ViewNode } from './viewModel';

/** The hover card of a node: placed next to the pointer (or the focused node), kept inside the panel. */
export class Tooltip {
  private readonly element: HTMLElement;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly container: HTMLElement) {
    this.element = document.createElement('div');
    this.element.className = 'tooltip';
    this.element.setAttribute('role', 'tooltip');
    this.element.hidden = true;
    container.append(this.element);
  }

  show(content: HTMLElement, at: { x: number; y: number }, delay = 250): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.element.replaceChildren(content);
      this.element.hidden = false;
      const width = this.element.offsetWidth;
      const height = this.element.offsetHeight;
      const x = Math.min(at.x + 14, this.container.clientWidth - width - 8);
      const y = at.y + 18 + height > this.container.clientHeight ? Math.max(8, at.y - height - 10) : at.y + 18;
      this.element.style.transform = `translate(${Math.max(8, Math.round(x))}px, ${Math.round(y)}px)`;
    }, delay);
  }

  hide(): void {
    clearTimeout(this.timer);
    this.element.hidden = true;
  }
}

/** What a node's hover card is made from: the drawn node and the graph's index. */
export type NodeLookup = (id: string) => { node: ViewNode; index: GraphIndex } | undefined;

/** The texts of modules' unresolved and ambiguous references, the first `limit`, each module's in turn. */
export type ProblemTexts = (modules: string[], limit: number) => Promise<PanelProblem[]>;

/** The address of a module's state; null if it has none. */
export type ModuleAddress = (id: string) => Promise<string | null>;

/** Why a module is affected by the changes since a base ref, while the affected view is on. */
export type AffectedWhy = (id: string) => string | undefined;

/** What the last run made of an affected module (planned, stale, unaffected), and why. */
export type AffectedRun = (id: string) => { outcome: string; text: string } | undefined;

/** How many problems a hover card lists. */
const CARD_PROBLEMS = 6;

const SYNTAX_PROBLEM =
  'Files: does not parse (see Problems): terraform cannot run it; its edges come from the blocks that still parse';

/** The hover cards of the drawing's nodes: under the pointer, or next to the node with the keyboard focus. */
export class NodeTooltips {
  private readonly tooltip: Tooltip;

  constructor(
    private readonly canvas: HTMLElement,
    private readonly lookup: NodeLookup,
    private readonly problemTexts: ProblemTexts,
    private readonly address: ModuleAddress,
    private readonly affectedWhy: AffectedWhy,
    private readonly affectedRun: AffectedRun,
  ) {
    this.tooltip = new Tooltip(canvas);
    canvas.addEventListener('mouseover', (event) => {
      const node = (event.target as Element).closest?.('.node') as SVGGElement | null;
      if (node) this.show(node, event);
    });
    canvas.addEventListener('mouseout', (event) => {
      if ((event.target as Element).closest?.('.node') && !(event.relatedTarget as Element | null)?.closest?.('.node'))
        this.tooltip.hide();
    });
    canvas.addEventListener('focusin', (event) => {
      const node = (event.target as Element).closest?.('.node') as SVGGElement | null;
      if (node) this.show(node);
    });
    canvas.addEventListener('focusout', () => this.tooltip.hide());
  }

  hide(): void {
    this.tooltip.hide();
  }

  private show(element: SVGGElement, event?: MouseEvent): void {
    const found = this.lookup(element.dataset.id ?? '');
    if (!found) return;
    const rect = element.getBoundingClientRect();
    const canvas = this.canvas.getBoundingClientRect();
    const anchor = event
      ? { x: event.clientX - canvas.left, y: event.clientY - canvas.top }
      : { x: rect.right - canvas.left, y: rect.top - canvas.top };
    this.tooltip.show(
      tooltipContent(found.node, found.index, this.problemTexts, this.address, this.affectedWhy, this.affectedRun),
      anchor,
    );
  }
}

function tooltipContent(
  node: ViewNode,
  index: GraphIndex,
  problemTexts: ProblemTexts,
  address: ModuleAddress,
  affectedWhy: AffectedWhy,
  affectedRun: AffectedRun,
): HTMLElement {
  const list = (title: string, ids: string[]) => {
    const shown = ids.slice(0, 8);
    return h(
      'div',
      { class: 'tooltip-section' },
      h('div', { class: 'tooltip-heading' }, `${title} (${ids.length})`),
      ...shown.map((id) => h('div', { class: 'tooltip-item' }, id)),
      ids.length > shown.length ? h('div', { class: 'tooltip-more' }, `and ${ids.length - shown.length} more`) : null,
    );
  };
  const outside = (ids: Iterable<string>) => [...new Set(ids)].filter((id) => !node.members.includes(id)).sort();
  const dependencies = outside(node.members.flatMap((id) => [...(index.dependencies.get(id) ?? [])]));
  const dependents = outside(node.members.flatMap((id) => [...(index.dependents.get(id) ?? [])]));
  const module = node.kind === 'module' ? index.byId.get(node.id) : undefined;
  return h(
    'div',
    {},
    h('div', { class: 'tooltip-title' }, node.kind === 'group' ? `${node.fold}: ${node.detail}` : node.id),
    h(
      'div',
      { class: 'tooltip-meta' },
      `${columnTitle(node)}${node.levels ? '' : ', no level'}${node.kind === 'group' ? ' · click to unfold' : ''}`,
    ),
    module?.backend ? addressItem(module.id, address) : null,
    node.runState
      ? h(
          'div',
          { class: `tooltip-run run-${node.runState}` },
          `Run state: ${RUN_DISPLAY_NAMES[node.runState]}${node.runReason ? ` — ${node.runReason}` : ''}`,
        )
      : null,
    affectedSection(node, affectedWhy, affectedRun),
    list('Depends on', dependencies),
    list('Used by', dependents),
    node.problems.length
      ? h(
          'div',
          { class: 'tooltip-section problems' },
          h(
            'div',
            { class: 'tooltip-heading' },
            `${node.problems.some((problem) => problem.kind === 'syntax') ? 'Problems' : 'Unresolved references'} (${node.problems.length})`,
          ),
          ...problemItems(node, problemTexts),
        )
      : null,
  );
}

/** A module's state address, filled in when the host answers; gone if it has none. */
function addressItem(id: string, address: ModuleAddress): HTMLElement {
  const item = h('div', { class: 'tooltip-address' }, '…');
  void address(id).then((text) => {
    if (text) item.textContent = text;
    else item.remove();
  });
  return item;
}

/** Why a module is affected by the changes; for a folded group, how many of its modules are, and why the first is. */
function affectedSection(node: ViewNode, affectedWhy: AffectedWhy, affectedRun: AffectedRun): HTMLElement | null {
  const affected = node.members.filter((id) => affectedWhy(id) !== undefined);
  if (affected.length === 0) return null;
  const first = affected[0]!;
  const heading = node.kind === 'group' ? `Affected (${affected.length} of ${node.members.length})` : 'Affected';
  return h(
    'div',
    { class: 'tooltip-section affected' },
    h('div', { class: 'tooltip-heading' }, heading),
    h(
      'div',
      { class: 'tooltip-item' },
      node.kind === 'group' ? `${first}: ${affectedWhy(first)}` : affectedWhy(first)!,
    ),
    lastRunItem(affectedRun(first)),
  );
}

/** `Last run: unaffected, not run — reads vpc_id of net/vpc: unchanged in its plan`. */
function lastRunItem(run: ReturnType<AffectedRun>): HTMLElement | null {
  if (!run) return null;
  const what =
    run.outcome === 'unaffected' ? 'unaffected, not run' : run.outcome === 'stale' ? 'stale, not planned' : 'planned';
  return h('div', { class: `tooltip-item last-run run-${run.outcome}` }, `Last run: ${what} — ${run.text}`);
}

/**
 * The first problems of a node's modules: a module that does not parse says so at once; the texts of
 * references come from the host, each item filled in when they arrive.
 */
function problemItems(node: ViewNode, problemTexts: ProblemTexts): HTMLElement[] {
  const shown = node.problems.slice(0, CARD_PROBLEMS);
  const items = shown.map((problem) =>
    h('div', { class: 'tooltip-item' }, problem.kind === 'syntax' ? SYNTAX_PROBLEM : '…'),
  );
  const pending = items.filter((_, at) => shown[at]!.kind !== 'syntax');
  if (pending.length) {
    const modules = [...new Set(shown.filter((problem) => problem.kind !== 'syntax').map((problem) => problem.from))];
    void problemTexts(modules, pending.length).then((texts) => {
      pending.forEach((item, at) => {
        const text = texts[at];
        item.textContent = text ? `${text.name}: ${text.reason}` : 'listed in the Problems view';
      });
    });
  }
  return items;
}
