import type { AffectedResult, RunStateView } from '../../server/src/protocol';
import { codicon, h, iconButton, toggleButton } from './dom';
import type { Drawn } from './graphCanvas';
import { plural } from './plural';

type Affected = Extract<AffectedResult, { kind: 'affected' }>;

/** What the last run made of an affected module: planned, stale until an upstream applies, or unaffected. */
export type LastRunOutcome = 'planned' | 'stale' | 'unaffected';
const OUTCOMES: readonly LastRunOutcome[] = ['planned', 'stale', 'unaffected'];

/**
 * "Affected by my changes", as Nx users know it: the modules whose plan reads a file changed since a base
 * ref (uncommitted and untracked ones too) and everything downstream of them, through the engine's
 * changed-only code (the host asks the server, and asks again after each change of the graph). On the
 * drawing, changed modules are outlined, the ones they affect marked, the rest dimmed; a hover card says why.
 * After a run of the changes, each is marked by what the run made of it: planned, stale until an upstream
 * applies, or unaffected (not run: no output it reads changed), from its run state.
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
    private readonly runStateOf: (id: string) => RunStateView | undefined,
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

  /** What the last run made of an affected module, and why; undefined when it is not affected or has not run. */
  lastRun(id: string): { outcome: LastRunOutcome; text: string } | undefined {
    if (this.affected?.why[id] === undefined) return undefined;
    const state = this.runStateOf(id);
    if (state?.decided) return { outcome: state.decided.status, text: state.decided.reason };
    // A plan still current (its files and upstreams as they were): what it would do.
    if (state?.plannedAt && state.state !== 'PlanNeeded') return { outcome: 'planned', text: state.reason };
    return undefined;
  }

  /** The host's answer: what is affected, or null (off, or failed). */
  show(affected: Affected | null): void {
    this.affected = affected;
    this.toggle.setAttribute('aria-pressed', String(!!affected));
    this.chip.hidden = !affected;
    this.redrawn();
  }

  /** The chip: the base ref, the counts, and what the last run made of them (run states change without a new answer). */
  private renderChip(affected: Affected): void {
    const downstream = affected.affected.length - affected.changed.length;
    this.chip.replaceChildren(
      codicon('diff'),
      h(
        'span',
        { class: 'focus-name', title: affected.changed.join('\n') },
        `Since ${affected.baseRef}: ${plural(affected.changed.length, 'changed module')}, ${downstream} downstream${this.lastRunCounts(affected)}`,
      ),
      iconButton('close', 'Stop showing what the changes affect', () => this.ask(false)),
    );
  }

  /** Marks the drawing: changed, affected, or dimmed; a folded node by the most affected of its modules. */
  apply(shown: Drawn | undefined): void {
    if (this.affected) this.renderChip(this.affected);
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
      const outcome = isAffected ? this.nodeOutcome(node.members) : undefined;
      for (const name of OUTCOMES) element.classList.toggle(`run-${name}`, outcome === name);
    }
    for (const edge of shown.drawing.edges) {
      edge.element.classList.toggle('unaffected', on && !(marked.has(edge.from) && marked.has(edge.to)));
    }
  }

  /** A node's mark: stale when one of its modules is, then planned; unaffected when all its affected ones are. */
  private nodeOutcome(members: readonly string[]): LastRunOutcome | undefined {
    const outcomes = members.flatMap((id) => (this.affected?.why[id] !== undefined ? [this.lastRun(id)?.outcome] : []));
    if (outcomes.includes('stale')) return 'stale';
    if (outcomes.includes('planned')) return 'planned';
    return outcomes.length > 0 && outcomes.every((outcome) => outcome === 'unaffected') ? 'unaffected' : undefined;
  }

  /** ` · last run: 1 planned, 3 unaffected, 1 stale`, when the last run decided some of them. */
  private lastRunCounts(affected: Affected): string {
    const counts = new Map<LastRunOutcome, number>();
    for (const id of affected.affected) {
      const outcome = this.lastRun(id)?.outcome;
      if (outcome) counts.set(outcome, (counts.get(outcome) ?? 0) + 1);
    }
    if (counts.size === 0) return '';
    return ` · last run: ${OUTCOMES.filter((name) => counts.has(name))
      .map((name) => `${counts.get(name)} ${name}`)
      .join(', ')}`;
  }
}
