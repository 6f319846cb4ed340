import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { loadWorkspace } from '../../server/src/engine/analysis';
import { loadAnalysisOptions } from '../../server/src/engine/config';
import { toPanelModel } from '../../server/src/languageServer/panelModel';
import type { PackedPanelModel, PanelModel } from '../../server/src/protocol';
import { packGraph, unpackGraph } from '../../webview/src/packedGraph';
import { writeTerragruntLive } from '../realShapes/terragruntLive';

const fixtures = path.resolve(__dirname, '../fixtures');

const temporary: string[] = [];
after(() => {
  for (const dir of temporary) rmSync(dir, { recursive: true, force: true });
});

function write(root: string, files: Record<string, string>): void {
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
}

const backend = (key: string) => `terraform {
  backend "s3" {
    bucket = "acme-state"
    key    = "${key}"
    region = "eu-west-1"
  }
}
`;

const read = (name: string, key: string) => `data "terraform_remote_state" "${name}" {
  backend = "s3"
  config = {
    bucket = "acme-state"
    key    = "${key}"
    region = "eu-west-1"
  }
}
`;

async function panelModel(root: string): Promise<PanelModel> {
  const analysis = await loadWorkspace(root, await loadAnalysisOptions(root));
  return toPanelModel(analysis.result(), 1);
}

/** The panel's edges as `reader -> writer file:line`: where a click on an edge's read opens. */
async function panelReads(root: string): Promise<string[]> {
  const panel = await panelModel(root);
  return panel.edges.map((edge) => `${edge.from} -> ${edge.to} ${edge.file}:${edge.line + 1}`).sort();
}

describe('the panel model: each read’s file, relative to its reader', () => {
  test('folder and file names URIs escape come back as written', async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'terrace-panel-model-'));
    temporary.push(root);
    write(root, {
      'net work/main.tf': backend('network.tfstate'),
      '100% app/main.tf': backend('app.tfstate'),
      '100% app/remote #1.tf': `\n${read('network', 'network.tfstate')}`,
      'ünïcode?/main.tf': `${backend('ui.tfstate')}${read('app', 'app.tfstate')}`,
    });
    assert.deepEqual(await panelReads(root), ['100% app -> net work remote #1.tf:2', 'ünïcode? -> 100% app main.tf:8']);
  });

  test('a read written in a file outside the reader’s folder: the path up to it', async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'terrace-panel-model-'));
    temporary.push(root);
    write(root, {
      'root.hcl': `remote_state {
  backend = "s3"
  config = {
    bucket = "acme-state"
    key    = "\${path_relative_to_include()}/terraform.tfstate"
    region = "eu-west-1"
  }
}
`,
      '_env/app.hcl': `dependency "vpc" {\n  config_path = "\${get_terragrunt_dir()}/../vpc"\n}\n`,
      'live/vpc/terragrunt.hcl': 'include "root" {\n  path = find_in_parent_folders("root.hcl")\n}\n',
      'live/app/terragrunt.hcl': `include "root" {
  path = find_in_parent_folders("root.hcl")
}
include "env" {
  path = "\${get_repo_root()}/_env/app.hcl"
}
`,
    });
    assert.deepEqual(await panelReads(root), ['live/app -> live/vpc ../../_env/app.hcl:1']);
  });
});

describe('the panel model as the host posts it: packed by column', () => {
  test('comes back whole: cycles, modules waiting for them, problems counted, run states, instances', async () => {
    for (const fixture of ['cycle-elsewhere', 'ambiguous-writers', 'for-each-and-count', 'terraform-stacks']) {
      const graph = await panelModel(path.join(fixtures, fixture));
      // A run state on one module only: a key most rows lack.
      graph.modules[0]!.runState = {
        state: 'PlanNeeded',
        reason: 'never planned',
        counts: { add: 1, change: 0, destroy: 0, import: 0, outputs: 2 },
      };
      const packed = JSON.parse(JSON.stringify(packGraph(graph)));
      assert.deepEqual(unpackGraph(packed), graph, fixture);
      assert.ok(graph.edges.length > 0, `${fixture} has edges`);
    }
    // A key set to undefined is absent once packed, as JSON has it.
    const graph = await panelModel(path.join(fixtures, 'cycle-elsewhere'));
    graph.modules[1]!.runState = undefined;
    const unpacked = unpackGraph(JSON.parse(JSON.stringify(packGraph(graph))));
    assert.deepEqual(unpacked, JSON.parse(JSON.stringify(graph)));
    assert.ok(!('runState' in unpacked.modules[1]!));
    const waiting = await panelModel(path.join(fixtures, 'cycle-elsewhere'));
    assert.ok(
      waiting.modules.some((module) => module.waitsForCycle === true),
      'a module waits for a cycle',
    );
    assert.ok(
      waiting.modules.some((module) => !('waitsForCycle' in module)),
      'others do not say so',
    );
  });

  test('300 Terragrunt units: the message is under a sixth of the objects’ size, and the same graph', async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'terrace-panel-pack-'));
    temporary.push(root);
    writeTerragruntLive(root, { units: 300 });
    const graph = await panelModel(root);
    const packed = JSON.stringify(packGraph(graph));
    const objects = JSON.stringify({ ...graph, edges: graph.edges.map((edge) => ({ ...edge, from: 0, to: 0 })) });
    assert.equal(graph.modules.length, 300);
    assert.ok(packed.length < objects.length / 6, `${packed.length} bytes packed, ${objects.length} as objects`);
    assert.deepEqual(unpackGraph(JSON.parse(packed)), graph);
    // The ids in the table's order, edges by their reader in order, small numbers a character each, the outputs
    // not known yet none at all, and each id sharing its folders with the one before.
    const { modules, edges, strings } = JSON.parse(packed) as PackedPanelModel;
    assert.deepEqual(
      [modules.columns.id, edges.columns.from, modules.columns.level, edges.columns.outputs].map(
        (column) => Object.keys(column!)[0],
      ),
      ['stringSteps', 'steps', 'digits', 'emptyLists'],
    );
    const ids = graph.modules.map((module) => module.id);
    const spelled = strings.suffixes.slice(0, ids.length).join('').length;
    assert.ok(
      spelled < ids.join('').length / 3,
      `${spelled} of the ids' ${ids.join('').length} characters spelled out`,
    );
  });

  test('segments named on every module are packed by column too, and come back as they were', async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'terrace-panel-segments-'));
    temporary.push(root);
    writeTerragruntLive(root, { units: 300 });
    const graph = await panelModel(root);
    // As a discovery pattern names them (`{service}/{environment}/{region}/{module}`), on every module.
    const names = ['service', 'environment', 'region', 'module'];
    for (const module of graph.modules)
      module.segments = Object.fromEntries(
        module.id
          .split('/')
          .slice(0, 4)
          .map((part, at) => [names[at]!, part]),
      );
    const packed = JSON.parse(JSON.stringify(packGraph(graph)));
    assert.deepEqual(unpackGraph(packed), graph);
    assert.deepEqual(Object.keys(unpackGraph(packed).modules[0]!.segments), names);
    const segments = packed.modules.columns.segments;
    assert.ok('objects' in segments, 'the segments are rows of their own');
    const spelled = JSON.stringify(graph.modules.map((module) => module.segments)).length;
    assert.ok(JSON.stringify(segments).length < spelled / 5, `${JSON.stringify(segments).length} of ${spelled} bytes`);
  });

  test('numbers and strings that do not fit one character a row, or fall, come back as they were', async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'terrace-panel-numbers-'));
    temporary.push(root);
    writeTerragruntLive(root, { units: 300 });
    const graph = await panelModel(root);
    // Edges in no order of their reader, lines that fall, a read's instance null on some and a name on others,
    // outputs known on one edge only, a level past 35.
    graph.edges.push(graph.edges.shift()!);
    graph.edges.forEach((edge, n) => {
      edge.line = 1000 - n;
      edge.character = n % 50;
      edge.instance = n % 3 === 0 ? null : `["${n}"]`;
    });
    graph.edges[7]!.outputs = ['vpc_id', 'subnet_ids'];
    graph.modules[5]!.level = 40;
    const packed = JSON.parse(JSON.stringify(packGraph(graph))) as PackedPanelModel;
    assert.deepEqual(unpackGraph(packed), graph);
    const { edges } = packed;
    assert.deepEqual(
      ['from', 'line', 'character', 'instance', 'outputs'].map((key) => Object.keys(edges.columns[key]!)[0]),
      ['values', 'values', 'values', 'strings', 'stringLists'],
    );
    assert.equal(Object.keys(packed.modules.columns.level!)[0], 'values');
  });
});
