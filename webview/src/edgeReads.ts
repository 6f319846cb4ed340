import type { PanelEdge, PanelModel } from '../../server/src/protocol';
import { codicon, h, iconButton } from './dom';
import { plural } from './plural';
import { type ViewEdge, type ViewGraph, viewNodeOf } from './viewModel';

/**
 * The reads that make an edge, listed where it is clicked: for each, the reader, the block that
 * reads (`data.terraform_remote_state.vpc`, `dependency.vpc`, `component.vpc`), the outputs it reads
 * and its file and line, a click away from the file. An edge between folded nodes lists every read it stands for.
 */
export class EdgeReads {
  readonly element = h('div', { class: 'edge-reads', role: 'dialog', 'aria-label': 'Reads of an edge', hidden: true });

  constructor(
    private readonly container: HTMLElement,
    private readonly open: (read: PanelEdge) => void,
  ) {
    container.append(this.element);
    document.addEventListener('keydown', (event) => {
      if (event.key === 'Escape' && !this.element.hidden) this.hide();
    });
  }

  /** The reads of `graph` that the edge `id` of the drawn `view` stands for, listed where it was clicked. */
  showDrawn(id: string, view: ViewGraph, graph: PanelModel, event: MouseEvent): void {
    const edge = view.edges.find((candidate) => candidate.id === id);
    if (!edge) return;
    const nodeOf = viewNodeOf(view);
    const reads = graph.edges.filter((read) => nodeOf.get(read.from) === edge.from && nodeOf.get(read.to) === edge.to);
    const container = this.container.getBoundingClientRect();
    this.show(edge, reads, { x: event.clientX - container.left, y: event.clientY - container.top });
  }

  show(edge: ViewEdge, reads: PanelEdge[], at: { x: number; y: number }): void {
    const items = reads.map((read) => {
      const button = h(
        'button',
        { type: 'button', class: 'edge-read', title: `Open ${fileOf(read)} at line ${read.line + 1}` },
        h(
          'span',
          { class: 'edge-read-block' },
          `${read.from}: ${blockName(read)}`,
          ...(read.outputs.length > 0 ? [h('span', { class: 'edge-read-outputs' }, read.outputs.join(', '))] : []),
        ),
        h('span', { class: 'edge-read-place' }, `${fileOf(read).split('/').slice(-2).join('/')}:${read.line + 1}`),
      );
      button.addEventListener('click', () => {
        this.hide();
        this.open(read);
      });
      return h('li', {}, button);
    });
    this.element.replaceChildren(
      h(
        'div',
        { class: 'edge-reads-title' },
        codicon('references'),
        h('span', {}, `${plural(reads.length, 'read')} of ${edge.to.replace(/^group:/, '')}`),
        iconButton('close', 'Close (Escape)', () => this.hide()),
      ),
      h('ul', {}, ...items),
    );
    this.element.hidden = false;
    const width = this.element.offsetWidth;
    const height = this.element.offsetHeight;
    const x = Math.max(8, Math.min(at.x + 8, this.container.clientWidth - width - 8));
    const y = Math.max(8, Math.min(at.y + 8, this.container.clientHeight - height - 8));
    this.element.style.transform = `translate(${Math.round(x)}px, ${Math.round(y)}px)`;
    this.element.querySelector<HTMLButtonElement>('.edge-read')?.focus();
  }

  hide(): void {
    this.element.hidden = true;
  }
}

/** The block that reads, as its configuration names it. */
function blockName(read: PanelEdge): string {
  const instance = read.instance === null ? '' : `[${JSON.stringify(read.instance)}]`;
  if (read.matchedBy === 'dependency') return `dependency.${read.name}`;
  if (read.matchedBy === 'component') return `component.${read.name}`;
  return `data.terraform_remote_state.${read.name}${instance}`;
}

/** The read's file from the workspace folder: its reader's folder, then its own path from there. */
function fileOf(read: PanelEdge): string {
  const parts: string[] = [];
  for (const part of `${read.from}/${read.file}`.split('/')) {
    if (part === '..') parts.pop();
    else if (part !== '.' && part !== '') parts.push(part);
  }
  return parts.join('/');
}
