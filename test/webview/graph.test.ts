import * as assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import type { GraphEdge, GraphModel, GraphModule } from '../../server/src/protocol';
import { WebviewBrowser, type WebviewPage } from './browser';

const range = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };

function module(id: string, level: number): GraphModule {
  const [service, environment, region, name] = id.split('/');
  return {
    id,
    uri: `file:///repo/${id}`,
    level,
    segments: { service, environment, region, module: name },
    backend: { type: 's3', address: `s3://acme-state/${id}/terraform.tfstate` },
    location: { uri: `file:///repo/${id}/main.tf`, range },
    inCycle: false,
  };
}

function edge(from: string, to: string): GraphEdge {
  return {
    from,
    to,
    location: { uri: `file:///repo/${from}/main.tf`, range },
    name: to.split('/').at(-1) ?? to,
    instance: null,
    address: `s3://acme-state/${to}/terraform.tfstate`,
    matchedBy: 'backend-address',
    inCycle: false,
  };
}

const VPC = 'network/prod/eu-west-1/vpc';
const DNS = 'network/prod/eu-west-1/dns';
const EKS = 'platform/prod/eu-west-1/eks';
const API = 'app/prod/eu-west-1/api';

/** Two modules at level 0, the cluster on top of the vpc, the api on top of both. */
const graph: GraphModel = {
  root: 'file:///repo',
  version: 1,
  modules: [module(VPC, 0), module(DNS, 0), module(EKS, 1), module(API, 2)],
  edges: [edge(EKS, VPC), edge(API, EKS), edge(API, DNS)],
  levels: [[DNS, VPC], [EKS], [API]],
  cycles: [],
  unresolved: [],
  ambiguous: [],
};

/** The rendered columns: heading and node ids, in page order. */
async function columns(
  webview: WebviewPage,
): Promise<{ level: string | null; heading: string; ids: (string | null)[] }[]> {
  const sections = webview.page.locator('#graph > section.level');
  const result = [];
  for (const section of await sections.all()) {
    const ids = [];
    for (const node of await section.locator('button.node').all()) ids.push(await node.getAttribute('data-id'));
    result.push({
      level: await section.getAttribute('data-level'),
      heading: (await section.locator('h2').textContent()) ?? '',
      ids,
    });
  }
  return result;
}

describe('graph webview (dist/webview.js in headless chromium)', () => {
  let browser: WebviewBrowser;
  before(async () => {
    browser = await WebviewBrowser.launch();
  });
  after(async () => {
    await browser?.close();
  });

  test('says it is ready, then draws one column per level with its modules', async () => {
    const webview = await browser.open();
    assert.deepEqual(webview.messages[0], { type: 'ready' });
    await webview.post({ type: 'graph', graph });
    const rendered = await webview.waitForMessage('rendered');
    assert.deepEqual(rendered, { type: 'rendered', nodes: 4, levels: 3 });

    assert.equal(await webview.page.locator('.node').count(), 4);
    assert.deepEqual(await columns(webview), [
      { level: '0', heading: 'Level 0', ids: [DNS, VPC] },
      { level: '1', heading: 'Level 1', ids: [EKS] },
      { level: '2', heading: 'Level 2', ids: [API] },
    ]);
    assert.equal(await webview.page.locator(`.node[data-id="${EKS}"]`).textContent(), EKS);

    const shot = await webview.screenshot('graph');
    assert.ok(statSync(shot).size > 1000, `screenshot ${shot} has content`);
    assert.deepEqual(webview.errors, []);
  });

  test('clicking a node asks the host to open that module', async () => {
    const webview = await browser.open();
    await webview.post({ type: 'graph', graph });
    await webview.waitForMessage('rendered');
    const sent = webview.messages.length;
    await webview.page.locator(`.node[data-id="${EKS}"]`).click();
    assert.deepEqual(await webview.waitForMessage('openModule', sent), { type: 'openModule', id: EKS });
    await webview.page.getByRole('button', { name: API }).click();
    assert.deepEqual(await webview.waitForMessage('openModule', sent + 1), { type: 'openModule', id: API });
    assert.equal(webview.messages.length, sent + 2, 'one message per click');
    assert.deepEqual(webview.errors, []);
  });

  test('a new graph replaces the drawing instead of adding to it', async () => {
    const webview = await browser.open();
    await webview.post({ type: 'graph', graph });
    await webview.waitForMessage('rendered');
    const smaller: GraphModel = {
      ...graph,
      version: 2,
      modules: [module(VPC, 0), module(EKS, 1)],
      edges: [edge(EKS, VPC)],
      levels: [[VPC], [EKS]],
    };
    const since = webview.messages.length;
    await webview.post({ type: 'graph', graph: smaller });
    assert.deepEqual(await webview.waitForMessage('rendered', since), { type: 'rendered', nodes: 2, levels: 2 });
    assert.deepEqual(await columns(webview), [
      { level: '0', heading: 'Level 0', ids: [VPC] },
      { level: '1', heading: 'Level 1', ids: [EKS] },
    ]);
    assert.deepEqual(webview.errors, []);
  });

  test('messages that are not a graph are ignored', async () => {
    const webview = await browser.open();
    await webview.page.evaluate(`window.postMessage({ type: 'somethingElse' }, '*')`);
    await webview.page.evaluate(`window.postMessage(null, '*')`);
    await webview.post({ type: 'graph', graph });
    assert.deepEqual(await webview.waitForMessage('rendered'), { type: 'rendered', nodes: 4, levels: 3 });
    assert.deepEqual(
      webview.messages.map((message) => message.type),
      ['ready', 'rendered'],
    );
    assert.deepEqual(webview.errors, []);
  });
});
