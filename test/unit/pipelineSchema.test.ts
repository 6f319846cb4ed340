import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { parse } from 'yaml';
import { parseTerraceConfig } from '../../server/src/engine/config';

/**
 * The JSON Schema of .terrace.yaml shipped in the extension (completion and checks in the editor)
 * against the parser the CLI and the server use: every key the parser reads is in the schema,
 * and keys the parser rejects are not.
 */
const repo = path.resolve(__dirname, '../..');
type Schema = {
  $ref?: string;
  allOf?: Schema[];
  properties?: Record<string, Schema | true>;
  additionalProperties?: Schema | boolean;
  items?: Schema;
};
const schema = JSON.parse(readFileSync(path.join(repo, 'schemas/terrace.schema.json'), 'utf8')) as Schema & {
  definitions: Record<string, Schema>;
};

function resolve(node: Schema): Schema {
  if (node.$ref) return resolve(schema.definitions[node.$ref.replace('#/definitions/', '')]!);
  if (node.allOf) {
    const parts = node.allOf.map(resolve);
    const properties = Object.assign({}, ...parts.map((part) => part.properties), node.properties);
    const closed = parts.find((part) => part.additionalProperties !== undefined)?.additionalProperties;
    return { ...node, allOf: undefined, properties, additionalProperties: closed };
  }
  return node;
}

/** Key paths of `value` that the schema does not know (only where it closes an object). */
function unknownKeys(value: unknown, node: Schema, at: string): string[] {
  const resolved = resolve(node);
  if (Array.isArray(value))
    return resolved.items ? value.flatMap((item, i) => unknownKeys(item, resolved.items!, `${at}[${i}]`)) : [];
  if (typeof value !== 'object' || value === null || !resolved.properties) return [];
  return Object.entries(value).flatMap(([key, item]) => {
    const child = resolved.properties![key];
    if (child === undefined) return resolved.additionalProperties === false ? [`${at}${key}`] : [];
    return child === true ? [] : unknownKeys(item, child, `${at}${key}.`);
  });
}

const FULL = `
discovery: { mode: pattern, pattern: "{service}/{env}", exclude: [a], include: [b], backendConfigFiles: ["*.tfbackend"], libraryModules: [modules] }
terraformWorkspace: default
execution: { binary: tofu, terragrunt: /opt/tg/terragrunt, parallelism: 2, initArgs: [], planArgs: [], env: { A: b }, retries: 2, init: always }
gitlab:
  path: ci.yml
  stagePrefix: deploy
  image: alpine
  autoApprove: false
  planOnly: false
  cache: true
  variables: { A: b }
  rules: [{ if: $CI }]
  jobDefaults: { image: a, tags: [t], before_script: [x], after_script: y, variables: { V: w }, rules: [], id_tokens: { T: { aud: x } }, secrets: { S: { file: true } }, artifacts: { paths: [p] }, environment: prod, interruptible: true, retry: 1, timeout: 1h }
  overwrites: [{ type: apply, tags: [prod] }]
  split: level
github: { path: w.yml, split: none, name: N, on: { push: {} }, runsOn: x, environment: e, autoApprove: false, planOnly: false, permissions: { contents: read }, env: { A: b }, setupSteps: [{ run: x }] }
validate: { enabled: true, command: terrace validate ., image: "node:20" }
gate: { command: node tools/terrace/cli.js }
`;

describe('.terrace.yaml JSON Schema', () => {
  test('every key the parser reads is in the schema', () => {
    parseTerraceConfig(FULL, '.terrace.yaml');
    assert.deepEqual(unknownKeys(parse(FULL), schema, ''), []);
  });

  test('keys the parser rejects are not in the schema either', () => {
    for (const text of [
      'gitlab: { stagesPrefix: x }',
      'execution: { bin: x }',
      'gitlab: { jobDefaults: { cache: {} } }',
      'pipeline: {}',
      'validate: { run: x }',
      'gate: { cli: x }',
    ]) {
      assert.throws(() => parseTerraceConfig(text, '.terrace.yaml'));
      assert.equal(unknownKeys(parse(text), schema, '').length, 1, text);
    }
  });

  test('registered for .terrace.yaml and shipped in the package', () => {
    const manifest = JSON.parse(readFileSync(path.join(repo, 'package.json'), 'utf8'));
    const url = './schemas/terrace.schema.json';
    assert.deepEqual(manifest.contributes.yamlValidation, [{ fileMatch: '.terrace.yaml', url }]);
    assert.ok(manifest.contributes.jsonValidation.some((entry: { url: string }) => entry.url === url));
    assert.match(readFileSync(path.join(repo, '.vscodeignore'), 'utf8'), /^!schemas\/\*\*$/m);
  });
});
