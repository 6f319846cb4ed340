import * as assert from 'node:assert/strict';
import type { GraphPanel } from '../../../client/src/graphPanel';
import type { PanelToWebview } from '../../../server/src/protocol';

/** A first hover card on a panel just drawn: its questions to the host answered, ms from the first asked. */
export interface HoverFigures {
  module: string;
  answeredMs: number;
}

/**
 * Asks what the page asks for a hover card on a module it drew (its state's address, its problems' texts) as
 * the page posts it, the panel just drawn: the first card of a panel waits for the host's answers. The module
 * is the one with the most problems, whose card lists them.
 */
export async function probeHover(panel: GraphPanel): Promise<HoverFigures> {
  const graph = panel.currentGraph;
  assert.ok(graph && graph.modules.length > 0, 'the panel has a graph');
  const problems = (module: (typeof graph.modules)[number]) => (module.unresolved ?? 0) + (module.ambiguous ?? 0);
  const module = graph.modules.reduce((most, candidate) => (problems(candidate) > problems(most) ? candidate : most));
  const webview = panel.panel.webview;
  const posted: PanelToWebview[] = [];
  const post = webview.postMessage.bind(webview);
  (webview as { postMessage: typeof post }).postMessage = (message: PanelToWebview) => {
    posted.push(message);
    return post(message);
  };
  const started = Date.now();
  try {
    await Promise.all([
      panel.receive({ type: 'address', id: 9001, module: module.id }),
      panel.receive({ type: 'problems', id: 9002, modules: [module.id], limit: 6 }),
    ]);
  } finally {
    delete (webview as { postMessage?: unknown }).postMessage;
  }
  const answeredMs = Date.now() - started;
  const address = posted.find((message) => message.type === 'address' && message.id === 9001);
  const texts = posted.find((message) => message.type === 'problems' && message.id === 9002);
  assert.ok(address && texts, `both answers posted: ${JSON.stringify(posted)}`);
  if (texts.type === 'problems')
    assert.equal(texts.problems.length, Math.min(6, problems(module)), 'a text for each problem the panel counted');
  return { module: module.id, answeredMs };
}
