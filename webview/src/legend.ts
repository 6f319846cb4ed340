import { h, toggleButton } from './dom';
import { drawRunBadge, svgElement } from './render';
import { RUN_DISPLAY_NAMES, RUN_DISPLAYS } from './runDisplay';

/** The legend below the drawing, and the toolbar button that shows or hides it. */
export class Legend {
  readonly element: HTMLElement;
  readonly toggle: HTMLButtonElement;
  private readonly runStates: HTMLElement;
  private readonly units: HTMLElement;
  private readonly components: HTMLElement;

  constructor(shown: boolean, onToggle: (shown: boolean) => void) {
    this.toggle = toggleButton('info', 'Legend', (pressed) => {
      this.element.hidden = !pressed;
      onToggle(pressed);
    });
    this.toggle.setAttribute('aria-pressed', String(shown));
    // Run states, shown once a module has one.
    this.runStates = h(
      'li',
      { class: 'run-states', hidden: true },
      ...RUN_DISPLAYS.map((state) => {
        const svg = svgElement('svg', { width: 18, height: 20, class: 'legend-sample', 'aria-hidden': 'true' });
        drawRunBadge(svg, state, 9, 10);
        return h('span', { class: 'run-state-entry' }, svg, RUN_DISPLAY_NAMES[state]);
      }),
    );
    // Terragrunt units, shown once the graph has one.
    this.units = row('unit', 'Terragrunt unit (runs with terragrunt); square corners: a Terraform root module');
    this.units.classList.add('unit-legend');
    this.units.hidden = true;
    // Terraform Stacks' components, shown once the graph has one.
    this.components = row('component', 'Terraform Stacks component (planned by HCP Terraform, not by Run Plans)');
    this.components.classList.add('component-legend');
    this.components.hidden = true;
    this.element = h(
      'aside',
      { class: 'legend', 'aria-label': 'Legend' },
      h(
        'ul',
        {},
        row('edge', 'A depends on B (reads its remote state)'),
        row('inferred', 'inferred: only B fits what is known of the address'),
        row('ambiguous', 'ambiguous: B is one of several modules that fit'),
        row('cycle', 'dependency cycle'),
        row('problems', 'unresolved references'),
        row('group', 'a folded folder or group (click to unfold)'),
        this.units,
        this.components,
        this.runStates,
      ),
      h(
        'p',
        {},
        'Columns are execution levels, run left to right; the modules of a column can run in parallel. A module in a cycle, or one that depends on one, has no level: it is drawn after the levels, under “In a cycle” or “Waits for a cycle”.',
      ),
    );
    this.element.hidden = !shown;
  }

  showRunStates(shown: boolean): void {
    this.runStates.hidden = !shown;
  }

  showUnits(shown: boolean): void {
    this.units.hidden = !shown;
  }

  showComponents(shown: boolean): void {
    this.components.hidden = !shown;
  }
}

type SampleKind = 'edge' | 'inferred' | 'ambiguous' | 'cycle' | 'problems' | 'group' | 'unit' | 'component';

function row(kind: SampleKind, text: string): HTMLElement {
  return h('li', {}, sample(kind), h('span', {}, text));
}

function sample(kind: SampleKind): SVGSVGElement {
  const svg = svgElement('svg', { width: 64, height: 20, class: 'legend-sample', 'aria-hidden': 'true' });
  if (kind === 'edge' || kind === 'inferred' || kind === 'ambiguous' || kind === 'cycle') edgeSample(svg, kind);
  else if (kind === 'problems') {
    const badge = svgElement('g', { class: 'badge problems', transform: 'translate(54 10)' }, svg);
    svgElement('circle', { r: 9 }, badge);
    const text = svgElement('text', { 'text-anchor': 'middle', y: 4 }, badge);
    text.textContent = '2';
  } else if (kind === 'unit') {
    svgElement('rect', { class: 'node-box', x: 20, y: 3, width: 40, height: 14, rx: 7 }, svg);
  } else if (kind === 'component') {
    svgElement('rect', { class: 'node-box component-box', x: 20, y: 3, width: 40, height: 14, rx: 2 }, svg);
  } else {
    for (const offset of [4, 2, 0]) {
      svgElement(
        'rect',
        { class: 'node-box stack', x: 28 + 2 * offset, y: 6 - offset, width: 32 - 4 * offset, height: 12, rx: 3 },
        svg,
      );
    }
  }
  return svg;
}

/** Two small nodes, A reading B's remote state. */
function edgeSample(svg: SVGSVGElement, kind: 'edge' | 'inferred' | 'ambiguous' | 'cycle'): void {
  const cycle = kind === 'cycle';
  const box = `node-box${cycle ? ' cycle' : ''}`;
  svgElement('rect', { class: box, x: 1, y: 2, width: 18, height: 16, rx: 3 }, svg);
  svgElement('rect', { class: box, x: 45, y: 2, width: 18, height: 16, rx: 3 }, svg);
  svgElement(
    'path',
    {
      class: kind === 'edge' ? 'edge' : `edge ${kind}`,
      d: 'M45,10 L20,10',
      'marker-end': `url(#arrow-${cycle ? 'cycle' : 'plain'})`,
    },
    svg,
  );
  for (const [x, letter] of [
    [10, 'B'],
    [54, 'A'],
  ] as const) {
    const text = svgElement('text', { x, y: 14, 'text-anchor': 'middle', class: 'legend-letter' }, svg);
    text.textContent = letter;
  }
}
