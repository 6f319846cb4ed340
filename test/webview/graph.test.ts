import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { LayoutService } from '../../client/src/layoutService';
import { LayoutStore } from '../../client/src/layoutStore';
import type { GraphModel } from '../../server/src/protocol';
import { layoutKey, type Point } from '../../webview/src/layoutGraph';
import { NODE_HEIGHT, NODE_WIDTH } from '../../webview/src/layoutOptions';
import { packOutputs } from '../../webview/src/packedGraph';
import { TITLE_SIZE } from '../../webview/src/render';
import { writePlainSubscriptions } from '../realShapes/plainSubscriptions';
import { writeTerragruntLive } from '../realShapes/terragruntLive';
import { repoRoot, WebviewBrowser, type WebviewPage } from './browser';
import { type DrawnNode, drawnNodes } from './drawnGraph';
import { edgeCrossings } from './edgeCrossings';
import {
  API,
  cycle,
  DNS,
  dag,
  EKS,
  edge,
  module,
  RDS,
  rdsAffected,
  realGraph,
  realGraphAndOutputs,
  synthetic,
  VPC,
  WORKER,
} from './graphModels';
import { panelOfModel } from './panelOfModel';
import { themes } from './themes';

const FOLDER = 'file:///repo';

/** Each group box drawn, by group, with the nodes whose boxes lie inside it, sorted. */
async function groupBoxes(webview: WebviewPage): Promise<Record<string, string[]>> {
  const nodes = await drawnNodes(webview);
  const boxes = await webview.page.locator('svg.graph g.group-box-frame').evaluateAll((frames) =>
    frames.map((frame) => {
      // No helper function in here: the page gets this function's text, without tsx's helpers.
      const rect = frame.querySelector('rect.group-box')!;
      return {
        group: frame.getAttribute('data-group') ?? '',
        title: frame.querySelector('.group-box-title')?.textContent ?? '',
        x: Number(rect.getAttribute('x')),
        y: Number(rect.getAttribute('y')),
        width: Number(rect.getAttribute('width')),
        height: Number(rect.getAttribute('height')),
      };
    }),
  );
  const inside: Record<string, string[]> = {};
  for (const box of boxes.sort((a, b) => a.group.localeCompare(b.group))) {
    assert.equal(box.title, box.group, 'a box is titled with its group');
    inside[box.group] = nodes
      .filter(
        (node) =>
          node.x < box.x + box.width &&
          node.x + NODE_WIDTH > box.x &&
          node.y < box.y + box.height &&
          node.y + NODE_HEIGHT > box.y,
      )
      .map((node) => {
        const within =
          node.x >= box.x &&
          node.y >= box.y &&
          node.x + NODE_WIDTH <= box.x + box.width &&
          node.y + NODE_HEIGHT <= box.y + box.height;
        assert.ok(within, `${node.id} lies wholly inside the box of ${box.group}, or outside it`);
        return node.id;
      })
      .sort();
  }
  return inside;
}

type Rgb = [number, number, number];

function rgb(css: string): Rgb {
  const [r, g, b] = (css.match(/[\d.]+/g) ?? []).map(Number);
  return [r ?? 0, g ?? 0, b ?? 0];
}

function blend(front: Rgb, back: Rgb, alpha: number): Rgb {
  return front.map((channel, i) => channel * alpha + back[i]! * (1 - alpha)) as Rgb;
}

/** WCAG's contrast ratio of two colours. */
function contrast(a: Rgb, b: Rgb): number {
  const luminance = (colour: Rgb) => {
    const [r, g, bl] = colour.map((c) => {
      const s = c / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * bl!;
  };
  const [high, low] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (high! + 0.05) / (low! + 0.05);
}

/** Asserts one x per level, and that a higher level is further right. */
function assertColumns(nodes: DrawnNode[]): Map<number, number> {
  const columnX = new Map<number, number>();
  for (const node of nodes) {
    const x = columnX.get(node.level);
    if (x === undefined) columnX.set(node.level, node.x);
    else assert.equal(node.x, x, `${node.id} (level ${node.level}) is in the column of level ${node.level}`);
  }
  const levels = [...columnX.keys()].sort((a, b) => a - b);
  for (let i = 1; i < levels.length; i++) {
    assert.ok(
      columnX.get(levels[i]!)! > columnX.get(levels[i - 1]!)!,
      `level ${levels[i]} is right of level ${levels[i - 1]}`,
    );
  }
  return columnX;
}

/** Waits until the page has laid out and painted twice: resize observers have run. */
function settled(webview: WebviewPage): Promise<unknown> {
  return webview.page.evaluate(
    () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
  );
}

function viewportTransform(webview: WebviewPage): Promise<string | null> {
  return webview.page.locator('svg.graph > g.viewport').getAttribute('transform');
}

/**
 * Each drawn edge's route, read back from its path: `M start`, then per bend `L … Q corner …`, then
 * `L end` (`roundedPath`), so the start, the Q control points and the end are the route's points.
 */
async function drawnRoutes(webview: WebviewPage): Promise<Point[][]> {
  const paths = await webview.page
    .locator('svg.graph path.edge')
    .evaluateAll((edges) => edges.map((edge) => edge.getAttribute('d') ?? ''));
  return paths.map((d) => {
    const numbers = (text: string) => text.split(/[ ,]+/).filter(Boolean).map(Number);
    const [mx, my] = numbers(/^M([^LQ]+)/.exec(d)?.[1] ?? '');
    const corners = [...d.matchAll(/Q([-\d.]+),([-\d.]+)/g)].map((m) => ({ x: Number(m[1]), y: Number(m[2]) }));
    const [lx, ly] = numbers(/L([^LQ]+)$/.exec(d)?.[1] ?? '');
    return [{ x: mx!, y: my! }, ...corners, { x: lx!, y: ly! }];
  });
}

/** The legend is folded until its toolbar button unfolds it. */
/**
 * Text fitted into a node: whole, or cut at a character and ended with an ellipsis. Where it is cut
 * depends on the fonts the machine has, so a test says what it must start with, not where it ends.
 */
/** A subtitle drawn whole, or cut: at its end, or (a path after what must show) at the path's start. */
function assertFitted(drawn: string | null | undefined, whole: string, mustShow: string): void {
  const text = drawn ?? '';
  assert.ok(text.startsWith(mustShow), `"${text}" starts with "${mustShow}"`);
  if (text === whole) return;
  const [head, tail] = text.split('…') as [string, string];
  assert.ok(
    whole.startsWith(head) && whole.endsWith(tail) && head.length + tail.length < whole.length,
    `"${text}" cuts "${whole}"`,
  );
}

async function unfoldLegend(webview: WebviewPage): Promise<void> {
  assert.equal(await webview.page.locator('.legend').isHidden(), true, 'folded at first');
  await webview.page.getByRole('button', { name: 'Legend' }).click();
  await webview.page.locator('.legend').waitFor({ state: 'visible' });
}

/** Every drawn node lies inside the drawing area as the panel shows it. */
async function assertWithinPanel(webview: WebviewPage): Promise<void> {
  const outside = await webview.page.evaluate(() => {
    const canvas = document.querySelector('.canvas')!.getBoundingClientRect();
    return [...document.querySelectorAll<SVGGElement>('svg.graph g.node')]
      .filter((node) => {
        const box = node.getBoundingClientRect();
        return box.left < canvas.left || box.top < canvas.top || box.right > canvas.right || box.bottom > canvas.bottom;
      })
      .map((node) => node.dataset.id);
  });
  assert.deepEqual(outside, [], 'no node outside the panel');
}

/** A click in the middle of the edge from `from` to `to`, until the reads it stands for are listed. */
async function clickEdge(webview: WebviewPage, from: string, to: string): Promise<void> {
  const point = await webview.page
    .locator(`path.edge[data-from="${from}"][data-to="${to}"]`)
    .evaluate((path: SVGPathElement) => {
      const at = path.getPointAtLength(path.getTotalLength() / 2);
      const matrix = path.getScreenCTM()!;
      return { x: at.x * matrix.a + at.y * matrix.c + matrix.e, y: at.x * matrix.b + at.y * matrix.d + matrix.f };
    });
  await webview.page.mouse.click(point.x, point.y);
  await webview.page.locator('.edge-reads').waitFor({ state: 'visible' });
}

function node(webview: WebviewPage, id: string) {
  return webview.page.locator(`svg.graph g.node[data-id="${id}"]`);
}

describe('graph webview (the built panel in headless chromium)', () => {
  let browser: WebviewBrowser;
  before(async () => {
    browser = await WebviewBrowser.launch();
  });
  after(async () => {
    await browser?.close();
  });

  test('draws a DAG: one node per module, levels as columns left to right, headed Level N', async () => {
    const webview = await browser.open();
    const ready = webview.messages[0];
    assert.equal(ready?.type, 'ready');
    // When its script ran, after its page started loading: the webview's own share of its load time.
    assert.ok(ready.type === 'ready' && typeof ready.pageMs === 'number' && ready.pageMs > 0);
    const rendered = await webview.render({ type: 'graph', graph: dag, folderUri: FOLDER });
    assert.equal(rendered.nodes, 6);
    assert.equal(rendered.levels, 4);
    assert.equal(rendered.edges, 7);
    assert.equal(rendered.groups, 0);
    assert.equal(rendered.version, 1);
    assert.equal(rendered.layoutIn, 'worker', 'the layout ran in a Web Worker');

    const nodes = await drawnNodes(webview);
    assert.deepEqual(nodes.map((n) => n.id).sort(), [API, DNS, EKS, RDS, VPC, WORKER].sort());
    for (const drawn of nodes) assert.equal(drawn.level, dag.modules.find((m) => m.id === drawn.id)!.level);
    const columns = assertColumns(nodes);
    assert.equal(columns.size, 4);

    const headings = await webview.page.locator('.column-heading').allTextContents();
    assert.deepEqual(headings, ['Level 0', 'Level 1', 'Level 2', 'Level 3']);
    // The headings sit over their columns, left to right.
    const headingX = await webview.page
      .locator('.column-heading')
      .evaluateAll((elements) => elements.map((e) => e.getBoundingClientRect().left));
    assert.deepEqual(
      [...headingX].sort((a, b) => a - b),
      headingX,
    );

    assert.equal(await node(webview, EKS).locator('.node-label').textContent(), 'eks');
    assertFitted(
      await node(webview, EKS).locator('.node-detail').textContent(),
      'platform/prod/eu-west-1',
      'platform/prod',
    );
    // Edges point from the reader to the dependency: one path per edge, with an arrowhead.
    assert.equal(await webview.page.locator('svg.graph path.edge').count(), 7);
    const eksToVpc = webview.page.locator(`path.edge[data-from="${EKS}"][data-to="${VPC}"]`);
    assert.equal(await eksToVpc.getAttribute('marker-end'), 'url(#arrow-plain)');
    // The unresolved reference of the worker is a badge on it.
    assert.equal(await node(webview, WORKER).locator('.badge.problems text').textContent(), '1');
    assert.equal(await webview.page.locator('svg.graph .badge.problems').count(), 1);
    assert.match(
      (await webview.page.locator('.status-text').textContent()) ?? '',
      /6 modules · 7 dependencies · 4 levels · 1 unresolved reference/,
    );
    assert.equal(await webview.page.locator('.banner.cycles').isHidden(), true);

    for (const [name, theme] of Object.entries(themes)) {
      const themed = name === 'dark' ? webview : await browser.open({ theme });
      if (themed !== webview) await themed.render({ type: 'graph', graph: dag, folderUri: FOLDER });
      const shot = await themed.screenshot(`dag-${name}`);
      assert.ok(statSync(shot).size > 10_000, `screenshot ${shot} has content`);
      assert.deepEqual(themed.errors, []);
    }
    assert.deepEqual(webview.errors, []);
  });

  test('its icons are the codicons drawn in the page, in the buttons’ colour: it loads no stylesheet and no font', async () => {
    const webview = await browser.open();
    await webview.render({ type: 'graph', graph: dag, folderUri: FOLDER });
    const icons = await webview.page.locator('.codicon').evaluateAll((elements) =>
      elements.map((icon) => {
        const path = icon.querySelector('svg > path');
        const box = icon.getBoundingClientRect();
        return {
          name: [...icon.classList].find((name) => name.startsWith('codicon-')),
          drawn: (path?.getAttribute('d') ?? '').length > 20,
          size: [box.width, box.height],
          // The path is filled in the text's colour of where it is (a button's, the error line's).
          inColour: !!path && getComputedStyle(path).fill === getComputedStyle(icon).color,
        };
      }),
    );
    assert.ok(icons.length >= 10, `the toolbar's icons: ${icons.length}`);
    assert.ok(icons.some((icon) => icon.name === 'codicon-zoom-in'));
    for (const icon of icons)
      assert.deepEqual(
        { ...icon, name: undefined },
        { name: undefined, drawn: true, size: [16, 16], inColour: true },
        icon.name,
      );
    const loaded = (await webview.page.evaluate(() =>
      performance.getEntriesByType('resource').map((entry) => entry.name),
    )) as string[];
    assert.deepEqual(
      loaded.filter((url) => /\.(css|ttf|woff2?)(\?|$)/.test(url)),
      [],
    );
    assert.deepEqual(webview.errors, []);
  });

  test('clicking a node asks the host to open that module; Enter on a focused node does too', async () => {
    const webview = await browser.open();
    await webview.render({ type: 'graph', graph: dag, folderUri: FOLDER });
    const sent = webview.messages.length;
    await node(webview, EKS).click();
    assert.deepEqual(await webview.waitForMessage('openModule', sent), { type: 'openModule', id: EKS });
    assert.deepEqual(await node(webview, EKS).getAttribute('class'), 'node module selected');
    // Hover cards post their questions too (a module's address): the next open is looked for after the first.
    const clicked = webview.messages.length;
    await node(webview, API).focus();
    await webview.page.keyboard.press('Enter');
    assert.deepEqual(await webview.waitForMessage('openModule', clicked), { type: 'openModule', id: API });
    assert.equal(webview.messages.filter((m) => m.type === 'openModule').length, 2, 'one message per click');
    // Arrow keys: right to the next column, left back, down within the column.
    await node(webview, DNS).focus();
    const focused = () => webview.page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.id);
    await webview.page.keyboard.press('ArrowRight');
    assert.ok([EKS, RDS].includes((await focused())!), 'a level-1 module has the focus');
    await webview.page.keyboard.press('ArrowLeft');
    assert.ok([DNS, VPC].includes((await focused())!), 'back in level 0');
    const first = await focused();
    await webview.page.keyboard.press(first === DNS ? 'ArrowDown' : 'ArrowUp');
    assert.equal(await focused(), first === DNS ? VPC : DNS);
    assert.equal(
      await webview.page.locator('svg.graph g.node[tabindex="0"]').count(),
      1,
      'one tab stop in the drawing',
    );
    assert.deepEqual(webview.errors, []);
  });

  test('hovering a node shows its id, level, state address (asked of the host), dependencies and dependents', async () => {
    const webview = await browser.open();
    await webview.render({ type: 'graph', graph: dag, folderUri: FOLDER });
    await node(webview, API).hover();
    const tooltip = webview.page.locator('.tooltip');
    await tooltip.waitFor({ state: 'visible' });
    assert.equal(await tooltip.locator('.tooltip-title').textContent(), API);
    assert.equal(await tooltip.locator('.tooltip-meta').textContent(), 'Level 2');
    await webview.page.waitForFunction(() => document.querySelector('.tooltip-address')?.textContent !== '…');
    assert.equal(await tooltip.locator('.tooltip-address').textContent(), `s3://acme-state/${API}/terraform.tfstate`);
    assert.equal(webview.messages.filter((message) => message.type === 'address').length, 1);
    const sections = await tooltip.locator('.tooltip-section').allTextContents();
    assert.deepEqual(sections, [`Depends on (3)${DNS}${EKS}${RDS}`, `Used by (1)${WORKER}`]);
    await webview.screenshot('dag-tooltip');
    assert.deepEqual(webview.errors, []);
  });

  test('a module that does not parse is outlined as an error, and its tooltip and label say so', async () => {
    const graph: GraphModel = {
      ...dag,
      modules: dag.modules.map((m) => (m.id === WORKER || m.id === DNS ? { ...m, parses: false } : m)),
    };
    const webview = await browser.open();
    await webview.render({ type: 'graph', graph, folderUri: FOLDER });
    assert.deepEqual(
      (
        await webview.page.locator('svg.graph g.node.broken').evaluateAll((nodes) => nodes.map((n) => n.dataset['id']))
      ).sort(),
      [DNS, WORKER].sort(),
    );
    // The worker: its unresolved reference and its files.
    assert.equal(await node(webview, WORKER).locator('.badge.problems text').textContent(), '2');
    assert.equal(await node(webview, DNS).locator('.badge.problems text').textContent(), '1');
    assert.match((await node(webview, DNS).getAttribute('aria-label')) ?? '', /, does not parse\. Press Enter/);
    await node(webview, WORKER).hover();
    const tooltip = webview.page.locator('.tooltip');
    await tooltip.waitFor({ state: 'visible' });
    // The reference's text is the host's, asked for as the card shows.
    await tooltip.locator('.tooltip-item', { hasText: 'queue: no module writes' }).waitFor();
    const problems = await tooltip.locator('.tooltip-section.problems .tooltip-item').allTextContents();
    assert.equal(await tooltip.locator('.tooltip-section.problems .tooltip-heading').textContent(), 'Problems (2)');
    assert.match(problems[0]!, /^Files: does not parse \(see Problems\): terraform cannot run it/);
    assert.equal(problems[1], 'queue: no module writes s3://acme-state/app/prod/eu-west-1/queue/terraform.tfstate');
    assert.equal(problems.length, 2);
    assert.deepEqual(
      webview.messages
        .filter((message) => message.type === 'problems')
        .map((message) => message.type === 'problems' && message.modules),
      [[WORKER]],
    );
    assert.deepEqual(webview.errors, []);
  });

  test('Terragrunt units are drawn with round corners, say so in their subtitle and label, and the legend explains them', async () => {
    const plain = await browser.open();
    await plain.render({ type: 'graph', graph: dag, folderUri: FOLDER });
    await unfoldLegend(plain);
    assert.equal(await plain.page.locator('.legend li.unit-legend').isHidden(), true, 'no unit, no legend row');
    const graph: GraphModel = {
      ...dag,
      modules: dag.modules.map((m) => (m.id === VPC || m.id === EKS ? { ...m, kind: 'unit' } : m)),
    };
    const webview = await browser.open();
    await webview.render({ type: 'graph', graph, folderUri: FOLDER });
    const units = await webview.page.locator('svg.graph g.node.unit').evaluateAll((nodes) =>
      nodes.map((n) => ({
        id: n.getAttribute('data-id'),
        radius: n.querySelector('rect.node-box')?.getAttribute('rx'),
        detail: n.querySelector('.node-detail')?.textContent,
      })),
    );
    units.sort((a, b) => String(a.id).localeCompare(String(b.id)));
    assert.deepEqual(
      units.map(({ id, radius }) => ({ id, radius })),
      [
        { id: VPC, radius: '14' },
        { id: EKS, radius: '14' },
      ].sort((a, b) => a.id.localeCompare(b.id)),
    );
    const wholeDetail: Record<string, string> = {
      [VPC]: 'terragrunt · network/prod/eu-west-1',
      [EKS]: 'terragrunt · platform/prod/eu-west-1',
    };
    for (const unit of units) assertFitted(unit.detail, wholeDetail[String(unit.id)] ?? '', 'terragrunt · ');
    assert.equal(await node(webview, API).locator('rect.node-box').getAttribute('rx'), '4');
    assert.match(
      (await node(webview, VPC).getAttribute('aria-label')) ?? '',
      /^Terragrunt unit network\/prod\/eu-west-1\/vpc, level 0/,
    );
    await unfoldLegend(webview);
    assert.equal(await webview.page.locator('.legend li.unit-legend').isHidden(), false);
    assert.match(
      (await webview.page.locator('.legend li.unit-legend').textContent()) ?? '',
      /Terragrunt unit \(runs with terragrunt\)/,
    );
    assert.deepEqual(webview.errors, []);
  });

  test('Terraform Stacks components are drawn with a dashed outline, say so in their subtitle and label, and the legend explains them', async () => {
    const graph = await realGraph(path.join(repoRoot, 'test', 'fixtures', 'terraform-stacks'));
    const webview = await browser.open();
    const rendered = await webview.render({ type: 'graph', graph, folderUri: FOLDER });
    assert.equal(rendered.nodes, 14);
    const components = await webview.page.locator('svg.graph g.node.component').evaluateAll((nodes) =>
      nodes.map((n) => ({
        id: n.getAttribute('data-id'),
        dash: getComputedStyle(n.querySelector('rect.node-box')!).strokeDasharray,
        detail: n.querySelector('.node-detail')?.textContent,
      })),
    );
    assert.equal(components.length, 13, 'every component and the embedded stack; the root module is not one');
    const dns = components.find((c) => c.id === 'platform/component.dns')!;
    assert.notEqual(dns.dash, 'none');
    assertFitted(dns.detail, 'stack · platform', 'stack · platform');
    assert.equal(
      await node(webview, 'account')
        .locator('rect.node-box')
        .evaluate((box) => getComputedStyle(box).strokeDasharray),
      'none',
    );
    assert.match(
      (await node(webview, 'platform/component.dns').getAttribute('aria-label')) ?? '',
      /^Stacks component platform\/component\.dns, level 2/,
    );
    await unfoldLegend(webview);
    assert.equal(await webview.page.locator('.legend li.component-legend').isHidden(), false);
    // Each Stack is drawn as a box around exactly its components; the root module beside them has none.
    assert.equal(await webview.page.locator('select.group-by').inputValue(), 'Stack');
    assert.deepEqual(await groupBoxes(webview), {
      network: ['network/component.vpc'],
      platform: [
        'platform/component.apps',
        'platform/component.audit',
        'platform/component.certificates',
        'platform/component.cluster',
        'platform/component.dns',
        'platform/component.logging',
        'platform/component.monitoring',
        'platform/component.network',
        'platform/component.peering',
        'platform/stack.observability',
      ],
      'platform/observability': [
        'platform/observability/component.grafana',
        'platform/observability/component.prometheus',
      ],
    });
    await webview.screenshot('stacks');
    assert.deepEqual(webview.errors, []);
  });

  test('inferred edges are drawn dashed, ambiguous ones dotted, and the legend says what each means', async () => {
    const graph: GraphModel = {
      ...dag,
      edges: dag.edges.map((e) =>
        e.from === API && e.to === EKS
          ? { ...e, match: 'inferred', assumed: { 'var.stack': 'blue' } }
          : e.from === WORKER && e.to === RDS
            ? { ...e, match: 'ambiguous', assumed: { 'var.env': 'prod' } }
            : e,
      ),
    };
    const webview = await browser.open();
    await webview.render({ type: 'graph', graph, folderUri: FOLDER });
    const drawn = await webview.page.locator('svg.graph path.edge').evaluateAll((paths) =>
      paths.map((p) => ({
        edge: `${p.getAttribute('data-from')} -> ${p.getAttribute('data-to')}`,
        kind: p.classList.contains('inferred') ? 'inferred' : p.classList.contains('ambiguous') ? 'ambiguous' : 'exact',
        dashes: getComputedStyle(p).strokeDasharray,
      })),
    );
    assert.equal(drawn.length, 7);
    const kinds = Object.fromEntries(drawn.map((d) => [d.edge, d.kind]));
    assert.equal(kinds[`${API} -> ${EKS}`], 'inferred');
    assert.equal(kinds[`${WORKER} -> ${RDS}`], 'ambiguous');
    assert.equal(drawn.filter((d) => d.kind === 'exact').length, 5);
    const dashes = Object.fromEntries(drawn.map((d) => [d.kind, d.dashes]));
    assert.equal(dashes.exact, 'none');
    assert.match(dashes.inferred!, /^6(px)?,? 3(px)?$/);
    assert.match(dashes.ambiguous!, /^2(px)?,? 3(px)?$/);
    await unfoldLegend(webview);
    const legend = await webview.page.locator('.legend li > span').allTextContents();
    assert.ok(legend.includes('inferred: only B fits what is known of the address'), legend.join(' | '));
    assert.ok(legend.includes('ambiguous: B is one of several modules that fit'));
    assert.ok(statSync(await webview.screenshot('edge-kinds')).size > 10_000);
  });

  test('search highlights matches and dims the rest; the filter toggle draws only matches', async () => {
    const webview = await browser.open();
    await webview.render({ type: 'graph', graph: dag, folderUri: FOLDER });
    await webview.page.locator('.search-input').fill('platform');
    const byClass = async (cls: string) =>
      (await drawnNodes(webview))
        .filter((n) => n.classes.includes(cls))
        .map((n) => n.id)
        .sort();
    assert.deepEqual(await byClass('match'), [EKS, RDS].sort());
    assert.deepEqual(await byClass('dimmed'), [API, DNS, VPC, WORKER].sort());
    assert.equal(await webview.page.locator('.search-count').textContent(), '2 of 6');

    const filtered = await webview.after(() =>
      webview.page.getByRole('button', { name: 'Show only matching modules' }).click(),
    );
    assert.equal(filtered.nodes, 2);
    assert.deepEqual((await drawnNodes(webview)).map((n) => n.id).sort(), [EKS, RDS].sort());

    const none = await webview.after(() => webview.page.locator('.search-input').fill('nothing-like-this'));
    assert.equal(none.nodes, 0);
    assert.equal(await webview.page.locator('svg.graph g.node').count(), 0);
    assert.equal(await webview.page.locator('.empty').textContent(), 'No module matches “nothing-like-this”.');
    assert.deepEqual(webview.errors, []);
  });

  test('focus on a module shows only its upstream and downstream closure; the toggles narrow it', async () => {
    const webview = await browser.open();
    await webview.render({ type: 'graph', graph: dag, folderUri: FOLDER });
    const focused = await webview.render({ type: 'focus', id: EKS });
    assert.equal(focused.nodes, 4);
    const ids = async () => (await drawnNodes(webview)).map((n) => n.id).sort();
    assert.deepEqual(await ids(), [API, EKS, VPC, WORKER].sort(), 'dns and rds are unrelated to eks');
    assertColumns(await drawnNodes(webview));
    assert.equal(await webview.page.locator('.focus-name').textContent(), 'eks');

    await webview.after(() => webview.page.locator('.focus-upstream').click());
    assert.deepEqual(await ids(), [API, EKS, WORKER].sort(), 'downstream only');
    await webview.after(() => webview.page.locator('.focus-upstream').click());
    await webview.after(() => webview.page.locator('.focus-downstream').click());
    assert.deepEqual(await ids(), [EKS, VPC].sort(), 'upstream only');

    const state = await webview.state<{ view: { focus: unknown } }>();
    assert.deepEqual(state.view.focus, { id: EKS, upstream: true, downstream: false, hops: null });

    await webview.after(() => webview.page.getByRole('button', { name: 'Show the whole graph (Escape)' }).click());
    assert.equal((await drawnNodes(webview)).length, 6);
    assert.deepEqual(webview.errors, []);
  });

  test('exploring: a focus one step away, the paths between two modules, hidden modules', async () => {
    const webview = await browser.open();
    await webview.render({ type: 'graph', graph: dag, folderUri: FOLDER });
    const ids = async () => (await drawnNodes(webview)).map((n) => n.id).sort();
    await webview.render({ type: 'focus', id: EKS });
    assert.equal(await webview.page.locator('button.hops[aria-pressed="true"]').textContent(), 'All');
    // One step: the worker reads eks only through the api.
    await webview.after(() => webview.page.locator('button.hops', { hasText: '1' }).click());
    assert.deepEqual(await ids(), [API, EKS, VPC].sort());
    await webview.after(() => webview.page.locator('button.hops', { hasText: '2' }).click());
    assert.deepEqual(await ids(), [API, EKS, VPC, WORKER].sort());
    await webview.after(() => webview.page.getByRole('button', { name: 'Show the whole graph (Escape)' }).click());
    assert.equal((await drawnNodes(webview)).length, 6);

    // The paths between the worker and the vpc: through the api and eks, through rds; dns is on none.
    await node(webview, WORKER).click();
    await node(webview, VPC).click({ modifiers: ['Control'] });
    assert.equal(await webview.page.getByRole('button', { name: /paths between the two selected/ }).isEnabled(), true);
    const paths = await webview.after(() =>
      webview.page.getByRole('button', { name: /paths between the two selected/ }).click(),
    );
    assert.equal(paths.nodes, 5);
    assert.deepEqual(await ids(), [API, EKS, RDS, VPC, WORKER].sort());
    assert.deepEqual(await webview.page.locator('.focus-bar .focus-name').allTextContents(), ['worker', 'vpc']);
    await webview.after(() => webview.page.getByRole('button', { name: 'Show the whole graph (Escape)' }).click());
    assert.equal((await drawnNodes(webview)).length, 6);

    // H hides the selected module; the chip shows it again.
    await node(webview, DNS).click();
    await node(webview, DNS).focus();
    const hidden = await webview.after(() => webview.page.keyboard.press('h'));
    assert.equal(hidden.nodes, 5);
    assert.ok(!(await ids()).includes(DNS));
    assert.equal(await webview.page.locator('.hidden-chip .focus-name').textContent(), '1 module hidden');
    const shown = await webview.after(() =>
      webview.page.getByRole('button', { name: 'Show the hidden modules' }).click(),
    );
    assert.equal(shown.nodes, 6);
    assert.deepEqual(webview.errors, []);
  });

  test('affected by the changes: changed modules outlined, what they affect marked, the rest dimmed, folded nodes too', async () => {
    const webview = await browser.open();
    await webview.render({ type: 'graph', graph: dag, folderUri: FOLDER });
    // The toolbar's toggle asks the host, which asks for the base ref and the server for the modules.
    let since = webview.messages.length;
    await webview.page.getByRole('button', { name: 'Show what the changes since a base ref affect' }).click();
    assert.deepEqual(await webview.waitForMessage('affected', since), { type: 'affected', on: true });
    await webview.post(rdsAffected);
    await webview.page.locator('g.node.changed').waitFor();
    const marks = async () =>
      Object.fromEntries(
        (await drawnNodes(webview)).map((n) => [
          n.id,
          ['changed', 'affected', 'unaffected'].filter((mark) => n.classes.includes(mark)).join(''),
        ]),
      );
    assert.deepEqual(await marks(), {
      [VPC]: 'unaffected',
      [DNS]: 'unaffected',
      [EKS]: 'unaffected',
      [RDS]: 'changed',
      [API]: 'affected',
      [WORKER]: 'affected',
    });
    assert.equal(
      await webview.page.locator('.affected-chip .focus-name').textContent(),
      'Since origin/main: 1 changed module, 2 downstream',
    );
    assert.equal(
      await webview.page
        .getByRole('button', { name: 'Show what the changes since a base ref affect' })
        .getAttribute('aria-pressed'),
      'true',
    );
    // Edges between affected modules stay; the others fade.
    const faded = await webview.page
      .locator('svg.graph path.edge.unaffected')
      .evaluateAll((paths) => paths.map((p) => `${p.getAttribute('data-from')}>${p.getAttribute('data-to')}`).sort());
    assert.deepEqual(faded, [`${API}>${DNS}`, `${API}>${EKS}`, `${EKS}>${VPC}`, `${RDS}>${VPC}`].sort());
    // A hover card says why a module is in; an unaffected one says nothing of it.
    const tooltip = webview.page.locator('.tooltip');
    await node(webview, API).hover();
    await tooltip.locator('.tooltip-title', { hasText: API }).waitFor();
    assert.equal(await tooltip.locator('.tooltip-section.affected').textContent(), `Affected${`depends on ${RDS}`}`);
    await node(webview, VPC).hover();
    await tooltip.locator('.tooltip-title', { hasText: VPC }).waitFor();
    assert.equal(await tooltip.locator('.tooltip-section.affected').count(), 0);
    await node(webview, RDS).hover();
    await tooltip.locator('.tooltip-title', { hasText: RDS }).waitFor();
    assert.equal(await tooltip.locator('.tooltip-section.affected').textContent(), 'Affectedits own file main.tf');
    await webview.page.mouse.move(0, 0);
    // Folded, platform holds the changed rds: the folded node is changed.
    await webview.after(() => webview.page.locator('select.group-by').selectOption('service'));
    await webview.after(() => webview.page.locator('.group-chip', { hasText: 'platform' }).click());
    assert.deepEqual((await marks())['group:platform'], 'changed');
    await node(webview, 'group:platform').hover();
    await tooltip.locator('.tooltip-section.affected').waitFor();
    assert.equal(
      await tooltip.locator('.tooltip-section.affected').textContent(),
      `Affected (1 of 2)${RDS}: its own file main.tf`,
    );
    since = webview.messages.length;
    await webview.page.getByRole('button', { name: 'Stop showing what the changes affect' }).click();
    assert.deepEqual(await webview.waitForMessage('affected', since), { type: 'affected', on: false });
    await webview.post({ type: 'affected', affected: null });
    await webview.page.locator('.affected-chip').waitFor({ state: 'hidden' });
    assert.equal(await webview.page.locator('g.node.unaffected, g.node.changed').count(), 0);
    assert.deepEqual(webview.errors, []);
  });

  test('affected, after a run of the changes: planned, stale until an upstream applies, unaffected, each with why', async () => {
    const webview = await browser.open();
    const ran: GraphModel = {
      ...dag,
      modules: dag.modules.map((m) => {
        const planned = { plannedAt: '2026-01-01T00:00:00Z' };
        const runState = {
          [RDS]: { state: 'ApplyNeeded' as const, reason: '0 to add, 1 to change, 0 to destroy', ...planned },
          [API]: {
            state: 'Idle' as const,
            reason: 'no changes',
            ...planned,
            decided: {
              status: 'unaffected' as const,
              reason: `reads endpoint of ${RDS}: unchanged in its plan`,
              at: '2026-01-01T00:01:00Z',
            },
          },
          [WORKER]: {
            state: 'PlanNeeded' as const,
            reason: `stale after ${RDS} applies: reads port (changed)`,
            decided: {
              status: 'stale' as const,
              reason: `after ${RDS} applies: reads port (changed)`,
              at: '2026-01-01T00:01:00Z',
            },
          },
        }[m.id];
        return runState ? { ...m, runState } : m;
      }),
    };
    await webview.render({ type: 'graph', graph: ran, folderUri: FOLDER });
    await webview.page.getByRole('button', { name: 'Show what the changes since a base ref affect' }).click();
    await webview.post(rdsAffected);
    await webview.page.locator('g.node.changed').waitFor();
    const outcomes = Object.fromEntries(
      (await drawnNodes(webview)).map((n) => [
        n.id,
        ['run-planned', 'run-stale', 'run-unaffected'].filter((mark) => n.classes.includes(mark)).join(''),
      ]),
    );
    assert.deepEqual(outcomes, {
      [VPC]: '',
      [DNS]: '',
      [EKS]: '',
      [RDS]: 'run-planned',
      [API]: 'run-unaffected',
      [WORKER]: 'run-stale',
    });
    assert.equal(
      await webview.page.locator('.affected-chip .focus-name').textContent(),
      'Since origin/main: 1 changed module, 2 downstream · last run: 1 planned, 1 stale, 1 unaffected',
    );
    // Drawn apart: the stale one in the warning colour, the unaffected one faded.
    const look = (id: string) =>
      node(webview, id).evaluate((element) => ({
        opacity: getComputedStyle(element).opacity,
        stroke: getComputedStyle(element.querySelector('.node-box')!).stroke,
      }));
    const [stale, unaffected, planned] = [await look(WORKER), await look(API), await look(RDS)];
    assert.notEqual(stale.stroke, planned.stroke);
    assert.ok(Number(unaffected.opacity) < 1 && Number(planned.opacity) === 1, JSON.stringify({ unaffected, planned }));
    const tooltip = webview.page.locator('.tooltip');
    await node(webview, API).hover();
    await tooltip.locator('.tooltip-title', { hasText: API }).waitFor();
    assert.equal(
      await tooltip.locator('.tooltip-section.affected .last-run').textContent(),
      `Last run: unaffected, not run — reads endpoint of ${RDS}: unchanged in its plan`,
    );
    await node(webview, WORKER).hover();
    await tooltip.locator('.tooltip-title', { hasText: WORKER }).waitFor();
    assert.equal(
      await tooltip.locator('.tooltip-section.affected .last-run').textContent(),
      `Last run: stale, not planned — after ${RDS} applies: reads port (changed)`,
    );
    await webview.screenshot('affected-after-run');
    assert.deepEqual(webview.errors, []);
  });

  test('a click on an edge lists the reads that make it, each opening its file at its line', async () => {
    const webview = await browser.open();
    await webview.render({ type: 'graph', graph: dag, folderUri: FOLDER });
    await clickEdge(webview, API, EKS);
    assert.equal(await webview.page.locator('.edge-reads-title').textContent(), `1 read of ${EKS}`);
    assert.deepEqual(await webview.page.locator('.edge-read').allTextContents(), [
      `${API}: data.terraform_remote_state.eksapi/main.tf:1`,
    ]);
    const since = webview.messages.length;
    await webview.page.locator('.edge-read').click();
    const opened = await webview.waitForMessage('openRead', since);
    assert.deepEqual([opened.from, opened.file, opened.line, opened.character], [API, 'main.tf', 0, 0]);
    assert.equal(await webview.page.locator('.edge-reads').isHidden(), true);

    // Between folded nodes, an edge lists every read it stands for.
    await webview.after(() => webview.page.locator('select.group-by').selectOption('service'));
    await webview.after(() => webview.page.locator('.group-chip', { hasText: 'platform' }).click());
    await clickEdge(webview, API, 'group:platform');
    assert.equal(await webview.page.locator('.edge-reads-title').textContent(), '2 reads of platform');
    assert.deepEqual((await webview.page.locator('.edge-read-block').allTextContents()).sort(), [
      `${API}: data.terraform_remote_state.eks`,
      `${API}: data.terraform_remote_state.rds`,
    ]);
    await webview.page.keyboard.press('Escape');
    assert.equal(await webview.page.locator('.edge-reads').isHidden(), true);
    assert.deepEqual(webview.errors, []);
  });

  const VPC_READS_TITLE =
    '2 reads; outputs read: availability_zones, azs, nat_gateway_id, private_subnet_ids, private_subnet_idz, public_subnet_ids, vpc_id, zone_id';
  const apiEdgeTitle = (webview: WebviewPage, to: string) =>
    webview.page.locator(`path.edge[data-from="app/api"][data-to="${to}"] > title`).allTextContents();

  test('an edge says which outputs flow along it: in its tooltip, and under each read it lists', async () => {
    const { graph, outputs } = await realGraphAndOutputs(path.join(repoRoot, 'test', 'fixtures', 'output-contracts'));
    const webview = await browser.open();
    // A panel opened once the outputs are known gets them with the graph.
    await webview.render({ type: 'graph', graph: panelOfModel(graph, outputs), folderUri: FOLDER });
    assert.deepEqual(await apiEdgeTitle(webview, 'network/vpc'), [VPC_READS_TITLE]);
    assert.deepEqual(await apiEdgeTitle(webview, 'network/dns'), ['outputs read: zone_id']);
    await clickEdge(webview, 'app/api', 'network/dns');
    assert.deepEqual(await webview.page.locator('.edge-read-outputs').allTextContents(), ['zone_id']);
    assert.deepEqual(webview.errors, []);
  });

  test('outputs that come after the graph go into the drawn edges’ tooltips and their reads’ list', async () => {
    const { graph, outputs } = await realGraphAndOutputs(path.join(repoRoot, 'test', 'fixtures', 'output-contracts'));
    const webview = await browser.open();
    await webview.render({ type: 'graph', graph, folderUri: FOLDER });
    assert.deepEqual(await apiEdgeTitle(webview, 'network/vpc'), ['2 reads']);
    assert.deepEqual(await apiEdgeTitle(webview, 'network/dns'), []);
    // Outputs of another version of the graph are not this one's.
    await webview.post({ type: 'outputs', version: graph.version + 1, outputs: packOutputs(outputs) });
    await webview.post({ type: 'outputs', version: graph.version, outputs: packOutputs(outputs) });
    await webview.page.waitForFunction(
      () => document.querySelector('path.edge[data-from="app/api"][data-to="network/dns"] > title') !== null,
    );
    assert.deepEqual(await apiEdgeTitle(webview, 'network/vpc'), [VPC_READS_TITLE]);
    assert.deepEqual(await apiEdgeTitle(webview, 'network/dns'), ['outputs read: zone_id']);
    await clickEdge(webview, 'app/api', 'network/dns');
    assert.deepEqual(await webview.page.locator('.edge-read-outputs').allTextContents(), ['zone_id']);
    assert.deepEqual(webview.errors, []);
  });

  test('a new graph version keeps the zoom, the focus and the selection', async () => {
    const webview = await browser.open();
    await webview.render({ type: 'graph', graph: dag, folderUri: FOLDER });
    await node(webview, API).click();
    await webview.page.locator('.canvas').focus();
    await webview.page.keyboard.press('+');
    await webview.page.keyboard.press('ArrowLeft');
    const before = await viewportTransform(webview);
    assert.match(before ?? '', /scale\(/);

    const LB = 'network/prod/eu-west-1/lb';
    const next: GraphModel = {
      ...dag,
      version: 2,
      modules: [...dag.modules, module(LB, 1)],
      edges: [...dag.edges, edge(LB, VPC), edge(API, LB)],
      levels: [[DNS, VPC], [EKS, LB, RDS], [API], [WORKER]],
    };
    const rendered = await webview.render({ type: 'graph', graph: next, folderUri: FOLDER });
    assert.equal(rendered.version, 2);
    assert.equal(rendered.nodes, 7);
    assert.equal(await viewportTransform(webview), before, 'same pan and zoom');
    assert.ok((await node(webview, API).getAttribute('class'))?.includes('selected'), 'the api is still selected');

    // Focus survives an update too.
    await webview.render({ type: 'focus', id: LB });
    // The focus bar appears in the toolbar: the view, just fitted, may fit again to the new height.
    await settled(webview);
    const zoomed = await viewportTransform(webview);
    const again = await webview.render({ type: 'graph', graph: { ...next, version: 3 }, folderUri: FOLDER });
    assert.equal(again.nodes, 4, 'lb, vpc, api, worker');
    assert.equal(await viewportTransform(webview), zoomed);
    assert.deepEqual(webview.errors, []);
  });

  test('pan and zoom: wheel, drag, keyboard and fit', async () => {
    const webview = await browser.open();
    await webview.render({ type: 'graph', graph: dag, folderUri: FOLDER });
    const scale = async () => Number(/scale\(([\d.]+)\)/.exec((await viewportTransform(webview)) ?? '')?.[1]);
    const translate = async () =>
      /translate\(([-\d.]+) ([-\d.]+)\)/
        .exec((await viewportTransform(webview)) ?? '')!
        .slice(1)
        .map(Number);
    const fitted = await scale();
    await webview.page.mouse.move(600, 200);
    await webview.page.mouse.wheel(0, -300);
    assert.ok((await scale()) > fitted, 'the wheel zooms in');
    const [x0, y0] = await translate();
    await webview.page.mouse.move(600, 150);
    await webview.page.mouse.down();
    await webview.page.mouse.move(500, 100, { steps: 4 });
    await webview.page.mouse.up();
    const [x1, y1] = await translate();
    assert.deepEqual([Math.round(x1! - x0!), Math.round(y1! - y0!)], [-100, -50], 'dragging pans');
    await webview.page.getByRole('button', { name: 'Fit to view (0)' }).click();
    assert.equal(await scale(), fitted);
    await webview.page.locator('.canvas').focus();
    await webview.page.keyboard.press('-');
    assert.ok((await scale()) < fitted, '- zooms out');
    await webview.page.keyboard.press('0');
    assert.equal(await scale(), fitted, '0 fits');
    assert.deepEqual(webview.errors, []);
  });

  test('a fitted view fits again when the panel is resized; a view the user moved stays', async () => {
    const webview = await browser.open();
    await webview.render({ type: 'graph', graph: dag, folderUri: FOLDER });
    const fitted = await viewportTransform(webview);
    // Still wide enough for the whole graph (about 1,170 px wide) with readable titles, at a smaller scale.
    await webview.page.setViewportSize({ width: 1100, height: 700 });
    await webview.page.waitForFunction(
      (before) => document.querySelector('svg.graph > g.viewport')?.getAttribute('transform') !== before,
      fitted,
    );
    const refitted = await viewportTransform(webview);
    const scale = (transform: string | null) => Number(/scale\(([\d.]+)\)/.exec(transform ?? '')?.[1]);
    assert.ok(scale(refitted) < scale(fitted), `narrower panel, smaller scale: ${fitted} then ${refitted}`);
    // Narrower than the graph can be shown whole with readable titles: a small graph is still shown
    // whole, smaller (`fitFloor`).
    await webview.page.setViewportSize({ width: 420, height: 700 });
    await webview.page.waitForFunction(
      (before) => document.querySelector('svg.graph > g.viewport')?.getAttribute('transform') !== before,
      refitted,
    );
    const narrow = await viewportTransform(webview);
    assert.ok(scale(narrow) * TITLE_SIZE < 11, `titles ${scale(narrow) * TITLE_SIZE} px high`);
    await assertWithinPanel(webview);
    await webview.page.locator('.canvas').focus();
    await webview.page.keyboard.press('+');
    const moved = await viewportTransform(webview);
    await webview.page.setViewportSize({ width: 900, height: 700 });
    await webview.page.waitForTimeout(300);
    assert.equal(await viewportTransform(webview), moved);
    assert.deepEqual(webview.errors, []);
  });

  test('group by service, fold and unfold a group', async () => {
    const webview = await browser.open();
    await webview.render({ type: 'graph', graph: dag, folderUri: FOLDER });
    await webview.after(() => webview.page.locator('select.group-by').selectOption('service'));
    assert.deepEqual(await webview.page.locator('.group-chip').allTextContents(), ['app2', 'network2', 'platform2']);
    assert.deepEqual(await groupBoxes(webview), {
      app: [API, WORKER].sort(),
      network: [DNS, VPC].sort(),
      platform: [EKS, RDS].sort(),
    });
    const collapsed = await webview.after(() => webview.page.locator('.group-chip', { hasText: 'platform' }).click());
    // One node stands for eks and rds.
    assert.equal(collapsed.nodes, 4);
    assert.equal(collapsed.groups, 1);
    const group = node(webview, 'group:platform');
    assert.equal(await group.locator('.node-label').textContent(), 'platform');
    assert.equal(await group.locator('.node-detail').textContent(), '2 modules');
    assertColumns(await drawnNodes(webview));
    assert.deepEqual(Object.keys(await groupBoxes(webview)), ['app', 'network'], 'a collapsed group has no box');
    await webview.screenshot('dag-grouped');
    const expanded = await webview.after(() => group.click());
    assert.equal(expanded.nodes, 6);
    assert.equal(expanded.groups, 0);
    assert.deepEqual(Object.keys(await groupBoxes(webview)), ['app', 'network', 'platform']);
    assertColumns(await drawnNodes(webview));
    await webview.screenshot('dag-group-boxes');
    assert.deepEqual(webview.errors, []);
  });

  test('run states: a badge on each module, the most pressing on a group, in the tooltip and the legend', async () => {
    const webview = await browser.open({ theme: themes.light });
    const withStates: GraphModel = {
      ...dag,
      modules: dag.modules.map((m) => {
        const runState = {
          [VPC]: { state: 'Idle' as const, reason: 'no changes' },
          [DNS]: { state: 'Idle' as const, reason: 'drift found', drifted: true },
          [EKS]: { state: 'ApplyNeeded' as const, reason: '1 to add, 0 to change, 0 to destroy' },
          [RDS]: { state: 'PlanNeeded' as const, reason: 'the last plan failed' },
          [API]: {
            state: 'PlanNeeded' as const,
            reason: 'files changed since the last plan',
            running: { command: 'plan', pid: 1, hostname: 'h', since: '2026-01-01T00:00:00Z' },
          },
        }[m.id];
        return runState ? { ...m, runState } : m;
      }),
    };
    await unfoldLegend(webview);
    assert.equal(
      await webview.page.locator('.legend .run-states').isHidden(),
      true,
      'no run states yet: no legend for them',
    );
    await webview.render({ type: 'graph', graph: withStates, folderUri: FOLDER });
    const states = Object.fromEntries((await drawnNodes(webview)).map((n) => [n.id, n.classes.length]));
    assert.equal(Object.keys(states).length, 6);
    const badge = async (id: string) => node(webview, id).getAttribute('data-run-state');
    assert.deepEqual(await Promise.all([VPC, DNS, EKS, RDS, API, WORKER].map(badge)), [
      'idle',
      'drifted',
      'apply',
      'failed',
      'running',
      null,
    ]);
    assert.equal(await node(webview, EKS).locator('.badge.run-state text').textContent(), 'A');
    assert.equal(await webview.page.locator('.legend .run-states').isVisible(), true);
    await node(webview, EKS).hover();
    await webview.page.locator('.tooltip .tooltip-run').waitFor({ state: 'visible' });
    assert.equal(
      await webview.page.locator('.tooltip .tooltip-run').textContent(),
      'Run state: apply needed — 1 to add, 0 to change, 0 to destroy',
    );
    await webview.screenshot('run-states-light');
    // Collapsed, platform (eks: apply needed, rds: failed) shows the failure.
    await webview.after(() => webview.page.locator('select.group-by').selectOption('service'));
    await webview.after(() => webview.page.locator('.group-chip', { hasText: 'platform' }).click());
    assert.equal(await badge('group:platform'), 'failed');
    assert.deepEqual(webview.errors, []);
  });

  test('where no worker may start, the layout runs in the page', async () => {
    const webview = await browser.open({ html: (page) => page.replace('worker-src blob:', "worker-src 'none'") });
    const rendered = await webview.render({ type: 'graph', graph: dag, folderUri: FOLDER });
    assert.equal(rendered.layoutIn, 'page');
    assert.equal(rendered.nodes, 6);
    assertColumns(await drawnNodes(webview));
    const problem = webview.messages.find((message) => message.type === 'problem');
    assert.match(problem?.type === 'problem' ? problem.message : '', /the layout worker could not start/);
  });

  test('offered by the host, layouts come from the extension host’s layout thread; a view laid out before comes back at once, in the next window too', async () => {
    const script = path.join(repoRoot, 'dist', 'layoutThread.js');
    const storage = mkdtempSync(path.join(os.tmpdir(), 'terrace-layouts-'));
    const stored = path.join(storage, 'graph-layouts.json');
    const service = new LayoutService(script, new LayoutStore(stored, script));
    // The next window's: the same storage, and the same layout code or another.
    const nextWindow = new LayoutService(script, new LayoutStore(stored, script));
    const otherCode = new LayoutService(script, new LayoutStore(stored, path.join(repoRoot, 'dist', 'webview.js')));
    try {
      const html = (page: string) => page.replace('data-worker=', 'data-layout="host" data-worker=');
      const answer = (webview: WebviewPage, service: LayoutService) => {
        let answered = 0;
        const timer = setInterval(() => {
          for (const message of webview.messages.slice(answered)) {
            answered++;
            if (message.type !== 'layout') continue;
            void service.layout(message.input).then(
              (layout) => webview.post({ type: 'layout', id: message.id, layout }),
              (error: unknown) => webview.post({ type: 'layout', id: message.id, error: String(error) }),
            );
          }
        }, 10);
        return () => clearInterval(timer);
      };
      const drawWithHost = async (layouts = service) => {
        const page = await browser.open({ html });
        const stop = answer(page, layouts);
        const drawn = await page.render({ type: 'graph', graph: dag, folderUri: FOLDER });
        stop();
        return { page, drawn };
      };
      const { page: first, drawn } = await drawWithHost();
      assert.equal(drawn.layoutIn, 'host');
      assert.equal(drawn.nodes, 6);
      assertColumns(await drawnNodes(first));
      assert.ok(drawn.layoutMs > 0, 'laid out by elkjs in the thread');
      // Another panel on the same view: the host's kept layout, no elkjs.
      const { page: second, drawn: again } = await drawWithHost();
      assert.equal(again.layoutIn, 'host');
      assert.equal(again.layoutMs, 0);
      assert.deepEqual(await drawnNodes(second), await drawnNodes(first));
      // A panel reopened on the view the last one opened with: its layout comes with the graph, unasked.
      const asked = first.messages.find((message) => message.type === 'layout');
      assert.ok(asked?.type === 'layout');
      const key = layoutKey(asked.input);
      const layout = service.keptLayout(key);
      assert.ok(layout, 'the host keeps the opening view’s layout');
      const reopened = await browser.open({ html });
      const unasked = await reopened.render({ type: 'graph', graph: dag, folderUri: FOLDER, opening: { key, layout } });
      assert.equal(unasked.layoutIn, 'host');
      assert.equal(unasked.layoutMs, 0);
      assert.equal(reopened.messages.filter((message) => message.type === 'layout').length, 0, 'nothing asked');
      assert.deepEqual(await drawnNodes(reopened), await drawnNodes(first));
      // A new window: the layout kept in the workspace's storage, no elkjs; none from other layout code.
      await service.flush();
      assert.equal((JSON.parse(readFileSync(stored, 'utf8')) as { layouts: unknown[] }).layouts.length, 1);
      const { page: third, drawn: kept } = await drawWithHost(nextWindow);
      assert.equal(kept.layoutMs, 0, 'drawn from the layout kept by the earlier window');
      assert.deepEqual(await drawnNodes(third), await drawnNodes(first));
      const { drawn: afresh } = await drawWithHost(otherCode);
      assert.ok(afresh.layoutMs > 0, 'laid out again: the kept layouts were made by other code');
      // Another view's layout is no use to it: it asks.
      const other = await browser.open({ html });
      const stopOther = answer(other, service);
      await other.render({ type: 'graph', graph: cycle, folderUri: FOLDER, opening: { key, layout } });
      stopOther();
      assert.ok(
        other.messages.some((message) => message.type === 'layout'),
        'the other view was asked for',
      );
      assert.deepEqual([...reopened.errors, ...other.errors], []);
      assert.deepEqual([...first.errors, ...second.errors, ...third.errors], []);
    } finally {
      for (const layouts of [service, nextWindow, otherCode]) {
        await layouts.flush();
        layouts.dispose();
      }
      rmSync(storage, { recursive: true, force: true });
    }
  });

  test('a reloaded panel restores its view from getState', async () => {
    const state = {
      folderUri: FOLDER,
      view: {
        groupBy: null,
        collapsed: [],
        focus: { id: RDS, upstream: true, downstream: false },
        search: 'vpc',
        filter: false,
      },
      selected: [RDS],
      transform: { x: 40, y: 30, k: 0.8 },
      legend: true,
    };
    const webview = await browser.open({ state });
    const rendered = await webview.render({ type: 'graph', graph: dag, folderUri: FOLDER });
    assert.equal(rendered.nodes, 2, 'rds and its upstream, the vpc');
    assert.equal(await viewportTransform(webview), 'translate(40 30) scale(0.8)');
    assert.equal(await webview.page.locator('.search-input').inputValue(), 'vpc');
    assert.ok((await node(webview, RDS).getAttribute('class'))?.includes('selected'));
    assert.equal(await webview.page.locator('.legend').isVisible(), true, 'unfolded, as it was left');
    assert.deepEqual(webview.errors, []);
  });

  test('exports the view as SVG and PNG for the host to save', async () => {
    const webview = await browser.open({ theme: themes.light });
    await webview.render({ type: 'graph', graph: cycle, folderUri: FOLDER });
    let since = webview.messages.length;
    await webview.page.getByRole('button', { name: 'Export as SVG…' }).click();
    const svg = await webview.waitForMessage('export', since);
    assert.equal(svg.format, 'svg');
    assert.match(svg.data, /^<\?xml/);
    assert.equal(svg.data.match(/<g class="node /g)?.length, 4);
    assert.equal(svg.data.match(/class="edge cycle"/g)?.length, 3);
    // The headings of the columns of modules with no level: the cycle's, and the api's that waits for it.
    assert.match(svg.data, />In a cycle<\/text>/);
    assert.match(svg.data, />Waits for a cycle<\/text>/);
    assert.match(svg.data, /stroke="rgb\(229, 20, 0\)"/, 'the colours are written into the file');
    assert.doesNotMatch(svg.data, /var\(--vscode/);

    since = webview.messages.length;
    await webview.post({ type: 'command', command: 'exportPng' });
    const png = await webview.waitForMessage('export', since);
    assert.equal(png.format, 'png');
    const bytes = Buffer.from(png.data, 'base64');
    assert.equal(bytes.subarray(1, 4).toString('latin1'), 'PNG');
    assert.ok(bytes.readUInt32BE(16) > 400, 'an image of some width');
    assert.deepEqual(webview.errors, []);
  });

  test('text is fitted in the font the page has when it draws, even one VS Code sets after the script started', async () => {
    const webview = await browser.open();
    // Units: their subtitles (`terragrunt · network/prod/eu-west-1`) are the longest.
    const units: GraphModel = { ...dag, modules: dag.modules.map((m) => ({ ...m, kind: 'unit' })) };
    await webview.render({ type: 'graph', graph: units, folderUri: FOLDER });
    // A wider font, as when VS Code styles the page late: the next drawing must measure in it.
    await webview.page.evaluate(() => document.documentElement.style.setProperty('--vscode-font-family', 'monospace'));
    await webview.render({ type: 'graph', graph: { ...units, version: dag.version + 1 }, folderUri: FOLDER });
    const texts = await webview.page.locator('svg.graph .node-detail').evaluateAll((nodes) =>
      nodes.map((node) => ({
        text: node.textContent ?? '',
        width: (node as SVGTextElement).getComputedTextLength(),
        room: Number(node.parentElement?.querySelector('rect.node-box')?.getAttribute('width')) - 24,
        family: getComputedStyle(node).fontFamily,
      })),
    );
    assert.ok(texts.length > 0);
    for (const { text, width, room, family } of texts) {
      assert.equal(family, 'monospace');
      assert.ok(width <= room + 0.5, `"${text}" is ${width.toFixed(1)} px wide, in ${room} px of its node`);
      assert.ok(text.startsWith('terragrunt'), `"${text}" says its kind`);
    }
    assert.ok(
      texts.some(({ text }) => text.includes('…')),
      'monospace is wide enough to cut the longest subtitle',
    );
    assert.deepEqual(webview.errors, []);
  });

  test('an edit that removes one edge redraws with every module where it was', async () => {
    const graph = synthetic(200);
    const webview = await browser.open({ state: { view: { groupBy: null } } });
    await webview.render({ type: 'graph', graph, folderUri: FOLDER });
    const before = new Map((await drawnNodes(webview)).map((n) => [n.id, n]));
    // The first edge's reader has another edge into the same level: no module changes level.
    const level = new Map(graph.modules.map((m) => [m.id, m.level]));
    const removed = graph.edges.find((e) =>
      graph.edges.some((o) => o !== e && o.from === e.from && level.get(o.to) === level.get(e.to)),
    )!;
    const edited: GraphModel = {
      ...graph,
      version: graph.version + 1,
      edges: graph.edges.filter((e) => e !== removed),
    };
    const rendered = await webview.render({ type: 'graph', graph: edited, folderUri: FOLDER });
    assert.equal(rendered.edges, graph.edges.length - 1);
    const after = await drawnNodes(webview);
    const moved = after.filter((n) => {
      const was = before.get(n.id)!;
      return Math.abs(n.y - was.y) > 1 || Math.abs(n.x - was.x) > 10;
    });
    assert.deepEqual(
      moved.map((n) => n.id),
      [],
      'within 1 px vertically, 10 px horizontally (elkjs may widen a gap where an edge slopes)',
    );
    assert.deepEqual(webview.errors, []);
  });

  test('the drawn edges cross no more than the earlier layout’s did, plus 10 %', async () => {
    // The panel's earlier layout (its own barycentre sweep) crossed 1,825 times at 200 modules, 27,664 at 1,000.
    for (const [modules, earlier] of [
      [200, 1825],
      [1000, 27664],
    ] as const) {
      const webview = await browser.open({ state: { view: { groupBy: null } } });
      await webview.render({ type: 'graph', graph: synthetic(modules), folderUri: FOLDER }, 120_000);
      const crossings = edgeCrossings(await drawnRoutes(webview));
      console.log(`# drawn edge crossings, ${modules} modules: ${crossings} (earlier layout ${earlier})`);
      assert.ok(crossings <= earlier * 1.1, `${crossings} crossings at ${modules} modules`);
      await webview.page.close();
    }
  });

  test('edges keep a contrast of 3:1 against the background, in the dark and the light theme', async () => {
    for (const [name, theme] of [
      ['dark', themes.dark],
      ['light', themes.light],
    ] as const) {
      const webview = await browser.open({ theme });
      await webview.render({ type: 'graph', graph: dag, folderUri: FOLDER });
      await webview.page.mouse.move(1, 1);
      const colours = await webview.page.evaluate(() => {
        const edge = document.querySelector('svg.graph path.edge:not(.cycle)')!;
        const style = getComputedStyle(edge);
        return {
          stroke: style.stroke,
          opacity: Number(style.strokeOpacity) * Number(getComputedStyle(edge.parentElement!).opacity || 1),
          background: getComputedStyle(document.body).backgroundColor,
        };
      });
      const ratio = contrast(
        blend(rgb(colours.stroke), rgb(colours.background), colours.opacity),
        rgb(colours.background),
      );
      assert.ok(
        ratio >= 3,
        `${name}: edges ${colours.stroke} at ${colours.opacity} on ${colours.background}: ${ratio.toFixed(2)}:1`,
      );
    }
  });

  test('examples/monorepo, as the engine sees it: 14 modules in 5 levels', async () => {
    const graph = await realGraph(path.join(repoRoot, 'examples', 'monorepo'));
    for (const [name, theme] of [
      ['dark', themes.dark],
      ['light', themes.light],
    ] as const) {
      const webview = await browser.open({ theme, viewport: { width: 1440, height: 810 } });
      const rendered = await webview.render({ type: 'graph', graph, folderUri: FOLDER });
      assert.ok(rendered.titlePx >= 11, `titles ${rendered.titlePx} px high`);
      assert.equal(rendered.nodes, 14);
      assert.equal(rendered.levels, 5);
      assert.equal(rendered.edges, graph.edges.length);
      assertColumns(await drawnNodes(webview));
      // The README's picture: the prod cluster selected, its edges highlighted.
      await node(webview, 'platform/prod/eu-central-1/eks').click();
      await webview.page.mouse.move(5, 5);
      await webview.screenshot(`monorepo-${name}`);
      assert.deepEqual(webview.errors, []);
    }
  });

  test('beside an editor, a small graph of many levels is laid out downward: each level a row, whole, larger', async () => {
    const graph = await realGraph(path.join(repoRoot, 'examples', 'monorepo'));
    // The room of a panel beside an editor: five levels side by side would draw 6 px titles here.
    const webview = await browser.open({ viewport: { width: 780, height: 900 } });
    const rendered = await webview.render({ type: 'graph', graph, folderUri: FOLDER });
    assert.equal(rendered.nodes, 14);
    assert.ok(rendered.titlePx >= 9, `titles ${rendered.titlePx.toFixed(1)} px high`);
    await assertWithinPanel(webview);
    // Each level a row (wrapped into two where it is wide), every row below the level before.
    const nodes = await drawnNodes(webview);
    const rows = (level: number) => nodes.filter((n) => n.level === level).map((n) => n.y);
    for (let level = 1; level < 5; level++)
      assert.ok(Math.min(...rows(level)) > Math.max(...rows(level - 1)), `level ${level} below level ${level - 1}`);
    // Each heading on its row's band, above the row's first node.
    const headings = await webview.page
      .locator('.column-heading')
      .evaluateAll((elements) =>
        elements.map((element) => ({ text: element.textContent, bottom: element.getBoundingClientRect().bottom })),
      );
    assert.deepEqual(
      headings.map((heading) => heading.text),
      ['Level 0', 'Level 1', 'Level 2', 'Level 3', 'Level 4'],
    );
    for (const [level, heading] of headings.entries()) {
      const top = await webview.page
        .locator(`svg.graph g.node[data-level="${level}"]`)
        .evaluateAll((drawn) => Math.min(...drawn.map((n) => n.getBoundingClientRect().top)));
      assert.ok(heading.bottom <= top, `${heading.text} above its row`);
    }
    // The arrow keys follow the rows: down to the next level, right along the row.
    await node(webview, 'network/prod/eu-central-1/vpc').click();
    await webview.page.keyboard.press('ArrowDown');
    const below = await webview.page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.level);
    assert.equal(below, '1');
    await webview.page.keyboard.press('ArrowRight');
    const along = await webview.page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.level);
    assert.equal(along, '1');
    await webview.screenshot('monorepo-downward');
    assert.deepEqual(webview.errors, []);
  });

  test('resized, a fitted view is arranged again for the panel’s new shape: rows in a tall panel, columns in a wide one', async () => {
    const graph = await realGraph(path.join(repoRoot, 'examples', 'monorepo'));
    const webview = await browser.open({ viewport: { width: 780, height: 900 } });
    const tall = await webview.render({ type: 'graph', graph, folderUri: FOLDER });
    assert.equal(await webview.page.locator('.column-headings.down').count(), 1, 'tall: levels as rows');
    const wide = await webview.after(() => webview.page.setViewportSize({ width: 1600, height: 520 }));
    assert.equal(await webview.page.locator('.column-headings.down').count(), 0, 'wide: levels as columns');
    const nodes = await drawnNodes(webview);
    const xs = (level: number) => nodes.filter((n) => n.level === level).map((n) => n.x);
    for (let level = 1; level < 5; level++)
      assert.ok(Math.min(...xs(level)) > Math.max(...xs(level - 1)), `level ${level} right of level ${level - 1}`);
    assert.ok(
      wide.titlePx > tall.titlePx * 0.9,
      `${wide.titlePx.toFixed(1)} px titles wide, ${tall.titlePx.toFixed(1)} tall`,
    );
    await assertWithinPanel(webview);
    // Back to tall: rows again.
    await webview.after(() => webview.page.setViewportSize({ width: 780, height: 900 }));
    assert.equal(await webview.page.locator('.column-headings.down').count(), 1);
    assert.deepEqual(webview.errors, []);
  });

  test('a level of many modules wraps into columns side by side within its band, the drawing about the panel’s shape', async () => {
    const readers = Array.from({ length: 120 }, (_, i) => `apps/a${String(i).padStart(3, '0')}`);
    const workers = Array.from({ length: 40 }, (_, i) => `jobs/j${String(i).padStart(3, '0')}`);
    const graph: GraphModel = {
      root: '/repo',
      version: 1,
      modules: [module('net/vpc', 0), ...readers.map((id) => module(id, 1)), ...workers.map((id) => module(id, 2))],
      edges: [...readers.map((id) => edge(id, 'net/vpc')), ...workers.map((id, i) => edge(id, readers[i * 3]!))],
      levels: [['net/vpc'], readers, workers],
      cycles: [],
      unresolved: [],
      ambiguous: [],
    };
    const webview = await browser.open({ state: { view: { groupBy: null } } });
    const rendered = await webview.render({ type: 'graph', graph, folderUri: FOLDER });
    await webview.screenshot('wrapped-level');
    assert.equal(rendered.nodes, 161);
    assert.deepEqual(await webview.page.locator('.column-heading').allTextContents(), [
      'Level 0',
      'Level 1',
      'Level 2',
    ]);
    const nodes = await drawnNodes(webview);
    const xs = (level: number) =>
      [...new Set(nodes.filter((n) => n.level === level).map((n) => n.x))].sort((a, b) => a - b);
    assert.ok(xs(1).length > 1, `level 1 in ${xs(1).length} columns`);
    // Every column of a level lies right of the columns of the level before.
    assert.ok(Math.min(...xs(1)) > Math.max(...xs(0)) && Math.min(...xs(2)) > Math.max(...xs(1)));
    // One band per level, around all of its columns.
    const bands = await webview.page
      .locator('svg.graph rect.band')
      .evaluateAll((rects) => rects.map((r) => [Number(r.getAttribute('x')), Number(r.getAttribute('width'))]));
    assert.equal(bands.length, 3);
    for (const x of xs(1))
      assert.ok(x > bands[1]![0]! && x < bands[1]![0]! + bands[1]![1]!, 'inside the band of level 1');
    const shape = (size: { width: number; height: number }) => size.width / size.height;
    const ratio = shape(rendered.drawing) / shape(rendered.panel);
    assert.ok(
      ratio > 0.4 && ratio < 2.5,
      `drawing ${JSON.stringify(rendered.drawing)}, panel ${JSON.stringify(rendered.panel)}`,
    );
    // Too many nodes to show whole in a narrow panel with readable titles: it scrolls, from level 0.
    await webview.page.setViewportSize({ width: 420, height: 700 });
    // The resize observer has answered by the second frame after the resize.
    await webview.page.evaluate(
      () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
    );
    const narrow = Number(/scale\(([\d.]+)\)/.exec((await viewportTransform(webview)) ?? '')?.[1]);
    assert.ok(narrow * TITLE_SIZE >= 11 - 1e-3, `titles ${narrow * TITLE_SIZE} px high`);
    const lefts = await webview.page
      .locator('.node')
      .evaluateAll((drawn) => drawn.map((node) => node.getBoundingClientRect().left));
    assert.ok(Math.min(...lefts) >= 0 && Math.min(...lefts) <= 100, `level 0 at the left: ${Math.min(...lefts)}`);
    assert.ok(Math.max(...lefts) > 420, 'the last levels a scroll away');
    assert.deepEqual(webview.errors, []);
    // Fewer: wrapped, the whole drawing fits the panel at readable titles (in one column, about 4 px).
    const few: GraphModel = {
      ...graph,
      modules: graph.modules.filter((m) => m.level < 2 && (m.id === 'net/vpc' || m.id < 'apps/a040')),
      edges: graph.edges.filter((e) => e.from < 'apps/a040'),
      levels: [['net/vpc'], readers.slice(0, 40)],
    };
    const small = await browser.open({ state: { view: { groupBy: null } }, viewport: { width: 1400, height: 900 } });
    const fitted = await small.render({ type: 'graph', graph: few, folderUri: FOLDER });
    assert.equal(fitted.nodes, 41);
    assert.ok(fitted.titlePx >= 11, `titles of ${fitted.titlePx} px`);
    await assertWithinPanel(small);
    await small.screenshot('wrapped-level-fitted');
    assert.deepEqual(small.errors, []);
  });

  test('real shapes: every title whole, and namesakes told apart by a subtitle drawn whole (50 Azure roots, 300 Terragrunt units)', async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'terrace-shapes-'));
    try {
      writePlainSubscriptions(path.join(root, 'plain'));
      writeTerragruntLive(path.join(root, 'live'));
      for (const shape of ['plain', 'live']) {
        const graph = await realGraph(path.join(root, shape));
        const webview = await browser.open({ state: { view: { groupBy: null } } });
        const rendered = await webview.render({ type: 'graph', graph, folderUri: FOLDER }, 60_000);
        assert.equal(rendered.nodes, graph.modules.length, `${shape}: every module drawn`);
        const drawn = await webview.page.locator('svg.graph g.node').evaluateAll((nodes) =>
          nodes.map((n) => {
            const detail = n.querySelector<SVGTextElement>('.node-detail')!;
            return {
              id: n.getAttribute('data-id') ?? '',
              title: n.querySelector('.node-label')?.textContent ?? '',
              detail: detail.textContent ?? '',
              detailWidth: detail.getComputedTextLength(),
              width: Number(n.querySelector('rect.node-box')?.getAttribute('width')),
            };
          }),
        );
        const byTitle = new Map<string, typeof drawn>();
        for (const node of drawn) {
          assert.ok(!node.title.endsWith('…'), `${shape}: the title of ${node.id} is whole`);
          assert.equal(node.title, node.id.split('/').at(-1));
          assert.ok(node.detailWidth <= node.width - 24 + 0.5, `${shape}: the subtitle of ${node.id} fits its node`);
          byTitle.set(node.title, [...(byTitle.get(node.title) ?? []), node]);
        }
        const shared = [...byTitle.values()].filter((nodes) => nodes.length > 1);
        assert.ok(
          shared.some((nodes) => nodes.length >= 6),
          `${shape}: names shared by many nodes`,
        );
        for (const nodes of shared) {
          // What is drawn of each namesake's subtitle, before any ellipsis, tells it from the others.
          const shown = nodes.map((node) => node.detail.replace(/…$/, ''));
          assert.equal(new Set(shown).size, nodes.length, `${shape}: ${nodes[0]!.title} × ${nodes.length}: ${shown}`);
          for (const node of nodes) {
            const folders = node.id.split('/').slice(0, -1);
            const told = shown[nodes.indexOf(node)]!.split(' · ').at(-1)!;
            assert.ok(folders.join('/').includes(told), `${shape}: "${told}" is a run of the folders of ${node.id}`);
          }
        }
        assert.deepEqual(webview.errors, []);
        await webview.page.close();
      }
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  test('300 Terragrunt units open folded, whole in the panel at readable titles, each folded edge counting its dependencies', async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'terrace-live-'));
    try {
      writeTerragruntLive(root);
      const graph = await realGraph(root);
      const webview = await browser.open({ viewport: { width: 800, height: 940 } });
      const rendered = await webview.render({ type: 'graph', graph, folderUri: FOLDER }, 60_000);
      assert.ok(rendered.groups > 0, 'opens folded');
      assert.ok(rendered.nodes + rendered.groups <= 60, `${rendered.nodes + rendered.groups} nodes drawn`);
      assert.ok(rendered.titlePx >= 11, `titles of ${rendered.titlePx} px`);
      await assertWithinPanel(webview);
      const folded = await webview.page.locator('svg.graph g.node').evaluateAll((nodes) =>
        nodes.map((n) => ({
          id: n.getAttribute('data-id') ?? '',
          detail: n.querySelector('.node-detail')?.textContent,
        })),
      );
      // Each folded node stands for the units of its folder; together with the units drawn, all of them.
      const members = new Map<string, string[]>();
      for (const { id } of folded) {
        const folder = id.startsWith('group:') ? id.slice('group:'.length) : id;
        members.set(
          id,
          graph.modules
            .filter((m) => m.id === folder || (id.startsWith('group:') && m.id.startsWith(`${folder}/`)))
            .map((m) => m.id),
        );
      }
      assert.equal(
        [...members.values()].reduce((sum, ids) => sum + ids.length, 0),
        graph.modules.length,
      );
      for (const { id, detail } of folded) {
        if (id.startsWith('group:')) assert.match(detail ?? '', new RegExp(`^${members.get(id)!.length} units`));
      }
      const nodeOf = new Map([...members].flatMap(([id, ids]) => ids.map((unit) => [unit, id] as const)));
      const drawnEdges = await webview.page.locator('svg.graph path.edge').evaluateAll((paths) =>
        paths.map((p) => ({
          from: p.getAttribute('data-from') ?? '',
          to: p.getAttribute('data-to') ?? '',
          count: Number(p.getAttribute('data-count')),
        })),
      );
      for (const edge of drawnEdges) {
        const stands = graph.edges.filter((e) => nodeOf.get(e.from) === edge.from && nodeOf.get(e.to) === edge.to);
        assert.equal(edge.count, stands.length, `${edge.from} → ${edge.to} counts the dependencies it stands for`);
      }
      // An edge that stands for several says how many at its reader's end.
      const labels = await webview.page.locator('svg.graph .edge-count').allTextContents();
      assert.deepEqual(
        labels.map(Number).sort((a, b) => a - b),
        drawnEdges
          .map((e) => e.count)
          .filter((count) => count > 1)
          .sort((a, b) => a - b),
      );
      await webview.screenshot('terragrunt-live-300-first-view');
      assert.deepEqual(webview.errors, []);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  test('1,000 modules open folded by folder, all of them in the panel at readable titles; unfolded, every level is one column', async () => {
    const graph = synthetic(1000);
    const webview = await browser.open();
    const grouped = await webview.render({ type: 'graph', graph, folderUri: FOLDER }, 60_000);
    assert.equal(grouped.nodes, 0, 'every module is in a folded folder');
    assert.ok(grouped.groups >= 2 && grouped.groups <= 60, `${grouped.groups} folded nodes`);
    assert.ok(grouped.titlePx >= 11, `titles of ${grouped.titlePx} px`);
    assert.equal(await webview.page.locator('select.group-by').inputValue(), 'folder');
    const groups = await drawnNodes(webview);
    assert.equal(groups.length, grouped.groups);
    await assertWithinPanel(webview);
    assert.equal(
      (await webview.page.locator('g.node.group .node-detail').allTextContents()).reduce(
        (sum, text) => sum + Number.parseInt(text, 10),
        0,
      ),
      1000,
      'the folded folders hold every module',
    );
    // The edges drawn between folded folders count every module edge between them.
    const counts = await webview.page
      .locator('svg.graph path.edge')
      .evaluateAll((paths) => paths.map((p) => Number(p.getAttribute('data-count'))));
    const crossing = graph.edges.filter((e) => e.from.split('/')[0] !== e.to.split('/')[0]).length;
    assert.equal(
      counts.reduce((sum, count) => sum + count, 0),
      crossing,
    );
    await webview.screenshot('synthetic-1000-grouped');

    const expanded = await webview.after(
      () => webview.page.getByRole('button', { name: 'Unfold everything' }).click(),
      120_000,
    );
    assert.equal(expanded.nodes, 1000);
    assert.equal(expanded.levels, graph.levels.length);
    assert.equal(
      (await webview.page.locator('.column-heading').allTextContents()).join(','),
      graph.levels.map((_, level) => `Level ${level}`).join(','),
    );
    const nodes = await drawnNodes(webview);
    assert.equal(nodes.length, 1000);
    assertColumns(nodes);
    // Each service's box holds exactly its modules.
    const boxes = await groupBoxes(webview);
    const services = [...new Set(graph.modules.map((m) => m.id.split('/')[0]!))].sort();
    assert.deepEqual(Object.keys(boxes), services);
    for (const service of services) {
      assert.deepEqual(
        boxes[service],
        graph.modules
          .filter((m) => m.id.startsWith(`${service}/`))
          .map((m) => m.id)
          .sort(),
        `the box of ${service}`,
      );
    }
    await webview.screenshot('synthetic-1000');
    assert.deepEqual(webview.errors, []);
  });
});
