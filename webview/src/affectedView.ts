import type { AffectedResult } from '../../server/src/protocol';
import { codicon, h, iconButton, toggleButton } from './dom';
import type { Drawn } from './graphCanvas';
import { plural } from './plural';

type Affected = Extract<AffectedResult, { kind: 'affected' }>;

/**
 * "Affected by my changes", as Nx users know it: the modules whose plan reads a file changed since a base
 * ref (uncommitted and untracked ones too) and everything downstream of them, through the engine's
 * changed-only code (the host asks the server, and asks again after each change of the graph). On the
 * drawing, changed modules are outlined, the ones they affect marked, the rest dimmed; a hover card says why.
 */
export class AffectedView {
  /** The toolbar's toggle. */
  readonly toggle: HTMLButtonElement;
  /** Names the base ref and the counts while on. */
  readonly chip = h('div', { class: 'focus-bar affected-chip', role: 'group', hidden: true });
  private affected: Affected | null = null;

  constructor(
    private readonly ask: (on: boolean) => void,
    private readonly redrawn: () => void,
  ) {
    this.toggle = toggleButton('diff', 'Show what the changes since a base ref affect', (pressed) => {
      // Pressed once the host answers; until then the button says what was asked.
      this.toggle.setAttribute('aria-pressed', 'false');
      this.ask(pressed);
    });
  }

  /** Why a module is affected (`reads live/terragrunt.hcl (include "root", …)`, `depends on net`); undefined when it is not, or the view is off. */
  why(id: string): string | undefined {
    return this.affected?.why[id];
  }

  /** The host's answer: what is affected, or null (off, or failed). */
  show(affected: Affected | null): void {
    this.affected = affected;
    this.toggle.setAttribute('aria-pressed', String(!!affected));
    this.chip.hidden = !affected;
    if (affected) {
      const downstream = affected.affected.length - affected.changed.length;
      this.chip.replaceChildren(
        codicon('diff'),
        h(
          'span',
          { class: 'focus-name', title: affected.changed.join('\n') },
          `Since ${affected.baseRef}: ${plural(affected.changed.length, 'changed module')}, ${downstream} downstream`,
        ),
        iconButton('close', 'Stop showing what the changes affect', () => this.ask(false)),
      );
    }
    this.redrawn();
  }

  /** Marks the drawing: changed, affected, or dimmed; a folded node by the most affected of its modules. */
  apply(shown: Drawn | undefined): void {
    if (!shown) return;
    const changed = new Set(this.affected?.changed ?? []);
    const affected = new Set(this.affected?.affected ?? []);
    const on = !!this.affected;
    const marked = new Set<string>();
    for (const node of shown.view.nodes) {
      const element = shown.drawing.nodes.get(node.id);
      if (!element) continue;
      const isChanged = on && node.members.some((id) => changed.has(id));
      const isAffected = on && node.members.some((id) => affected.has(id));
      if (isAffected) marked.add(node.id);
      element.classList.toggle('changed', isChanged);
      element.classList.toggle('affected', isAffected && !isChanged);
      element.classList.toggle('unaffected', on && !isAffected);
    }
    for (const edge of shown.drawing.edges) {
      edge.element.classList.toggle('unaffected', on && !(marked.has(edge.from) && marked.has(edge.to)));
    }
  }
}
