import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { FolderSettings, receivedSettings } from '../../server/src/languageServer/editorSettings';

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

describe('each folder’s settings as the server knows them', () => {
  test('the settings a folder started with are read without asking; a change asks, and names the folders whose differ', async () => {
    const answers = new Map<string, unknown>([
      ['/a', { discovery: { exclude: ['legacy/**'] } }],
      ['/b', { planMaxAge: 24 }],
    ]);
    const asked: string[] = [];
    const settings = new FolderSettings(async (root) => {
      asked.push(root);
      return answers.get(root);
    });
    settings.started('/a', { discovery: { exclude: ['legacy/**'] } });
    settings.started('/b', { planMaxAge: 24 });
    assert.deepEqual(await settings.of('/a'), { discovery: { exclude: ['legacy/**'] } });
    assert.deepEqual(asked, []);
    // The editor says the settings changed as it starts, with the same settings: no folder to index again.
    assert.deepEqual(await settings.changed(['/a', '/b']), []);
    assert.deepEqual(asked, ['/a', '/b']);
    answers.set('/b', { planMaxAge: 1 });
    assert.deepEqual(await settings.changed(['/a', '/b']), ['/b']);
    assert.deepEqual(await settings.of('/b'), { planMaxAge: 1 });
  });

  test('a change said twice at once names the folder once: the second answer finds the first known', async () => {
    const waiting: (() => void)[] = [];
    const settings = new FolderSettings(
      () => new Promise((resolve) => waiting.push(() => resolve({ discovery: { exclude: [] } }))),
    );
    settings.started('/a', { discovery: { exclude: ['legacy/**'] } });
    // Both asked before either answer is in, as two notifications in a row are.
    const first = settings.changed(['/a']);
    const second = settings.changed(['/a']);
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(waiting.length, 2);
    for (const answer of waiting) answer();
    assert.deepEqual([await first, await second], [['/a'], []]);
  });

  test('a folder the client did not name is asked once; without a client to ask, every change counts', async () => {
    let asked = 0;
    const settings = new FolderSettings(async () => {
      asked++;
      return { parallelism: 4 };
    });
    assert.deepEqual(await settings.changed(['/new']), [], 'not read yet: it reads them when it needs them');
    assert.deepEqual(await settings.of('/new'), { parallelism: 4 });
    await settings.of('/new');
    assert.equal(asked, 1);
    const deaf = new FolderSettings(undefined);
    assert.deepEqual(await deaf.of('/a'), {});
    assert.deepEqual(await deaf.changed(['/a', '/b']), ['/a', '/b']);
  });
});
