import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, test } from 'node:test';
import { analyzeDirectory } from '../../server/src/engine/analysis';
import { graphJson, renderDot, renderMermaid, renderText } from '../../server/src/engine/features';

const fixture = (name: string) => path.resolve(__dirname, '..', 'fixtures', name);

describe('text renderings of a graph', () => {
  test('inferred and ambiguous edges are told apart from exact ones', async () => {
    const graph = graphJson(await analyzeDirectory(fixture('known-text-matching')));
    const text = renderText(graph);
    assert.match(
      text,
      /\nInferred references \(5\): matched by the known part of their address\n {2}app\/api\/main\.tf:14 search -> search\/blue: assuming var\.remote_state_bucket = "acme-tfstate", var\.stack = "blue"\n {2}app\/api\/main\.tf:23 vpc -> network\/vpc: assuming var\.remote_state_bucket unknown, bucket unknown\n/,
    );
    assert.match(text, /\nAmbiguous references \(1\): depend on every writer\n {2}app\/api\/main\.tf:32 queue: /);
    const dot = renderDot(graph);
    assert.match(dot, /\n {2}"app\/api" -> "search\/blue" \[style=dashed\];\n/);
    assert.match(renderMermaid(graph), /\n {2}m\d+ -\.-> m\d+\n/);
  });

  test('exact edges stay solid', async () => {
    const graph = graphJson(await analyzeDirectory(fixture('s3-interpolated-keys')));
    assert.doesNotMatch(renderDot(graph), /dashed/);
    assert.doesNotMatch(renderMermaid(graph), /-\.->/);
    assert.doesNotMatch(renderText(graph), /Inferred references/);
  });
});
