import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { receivedSettings } from '../../server/src/languageServer/editorSettings';

/** The `terrace.*` settings package.json contributes, with their defaults, as the editor sends them. */
function contributedDefaults(): Record<string, unknown> {
  const manifest = JSON.parse(readFileSync(path.resolve(__dirname, '../../package.json'), 'utf8')) as {
    contributes: { configuration: { properties: Record<string, { default: unknown }> } };
  };
  const section: Record<string, unknown> = {};
  for (const [id, property] of Object.entries(manifest.contributes.configuration.properties)) {
    const keys = id.replace(/^terrace\./, '').split('.');
    let into = section;
    for (const key of keys.slice(0, -1)) {
      into[key] ??= {};
      into = into[key] as Record<string, unknown>;
    }
    into[keys.at(-1)!] = property.default;
  }
  return section;
}

describe('editor settings the server receives', () => {
  test('every setting of package.json, at its default, is read as sent', () => {
    const sent = contributedDefaults();
    assert.deepEqual(receivedSettings(sent), sent);
  });

  test('values of the wrong type are left out, so that the defaults and .terrace.yaml apply', () => {
    assert.deepEqual(
      receivedSettings({
        terraformPath: 3,
        parallelism: '4',
        planMaxAge: 12,
        discovery: { mode: 'glob', pattern: '{module}', exclude: ['a', 1] },
      }),
      { planMaxAge: 12, discovery: { pattern: '{module}' } },
    );
  });

  test('no settings at all (a client that cannot answer, or answers null)', () => {
    assert.deepEqual(receivedSettings(null), {});
    assert.deepEqual(receivedSettings([]), {});
  });
});
