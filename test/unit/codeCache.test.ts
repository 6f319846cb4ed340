import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';

const codeCache = path.resolve(__dirname, '../../server/src/codeCache.ts');
const work = mkdtempSync(path.join(tmpdir(), 'terrace-code-cache-'));
after(() => rmSync(work, { recursive: true, force: true }));

/** A bundle as esbuild writes one: CommonJS, requiring Node's modules and a file beside it. */
const BUNDLE = `'use strict';
exports.self = this === module.exports;
exports.names = [__filename, __dirname, module.filename];
exports.joined = require('node:path').join('a', 'b');
exports.sibling = require('./sibling.js').value;
exports.sum = function sum(n) { let total = 0; for (let i = 0; i < n; i++) total += i; return total; };
exports.thrower = function thrower() {
  throw new Error('from line 8');
};
`;

/** What a process that loads the bundle sees: each load in a process of its own, as each window's server is. */
interface Loaded {
  fromCache: boolean;
  saved: string;
  self: boolean;
  names: string[];
  joined: string;
  sibling: string;
  sum: number;
  thrownAt: string | undefined;
}

const DRIVER = path.join(work, 'driver.ts');
writeFileSync(
  DRIVER,
  `import { loadBundle } from ${JSON.stringify(codeCache)};
const [file, folder] = process.argv.slice(2);
const bundle = loadBundle(file!, folder === '-' ? undefined : folder);
const loaded = bundle.exports as Record<string, unknown> & { sum(n: number): number; thrower(): void };
let thrownAt: string | undefined;
try {
  loaded.thrower();
} catch (error) {
  thrownAt = /bundle\\.js:(\\d+)/.exec((error as Error).stack ?? '')?.[1];
}
const { self, names, joined, sibling } = loaded;
console.log(JSON.stringify({ fromCache: bundle.fromCache, saved: bundle.save(), self, names, joined, sibling, sum: loaded.sum(10), thrownAt }));
`,
);

function load(file: string, folder: string | undefined): Loaded {
  const run = spawnSync(process.execPath, ['--import', 'tsx', DRIVER, file, folder ?? '-'], { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(run.stdout) as Loaded;
}

function bundleIn(name: string, text = BUNDLE): { file: string; folder: string } {
  const dir = path.join(work, name);
  const file = path.join(dir, 'bundle.js');
  mkdirSync(dir, { recursive: true });
  writeFileSync(file, text);
  writeFileSync(path.join(dir, 'sibling.js'), "exports.value = 'beside';\n");
  return { file, folder: path.join(dir, 'cache') };
}

const caches = (folder: string) => readdirSync(folder).filter((entry) => /^bundle-[0-9a-f]{24}\.bin$/.test(entry));

test('a bundle loaded through the cache runs as Node would run it: its module, require, this, names and lines', () => {
  const { file, folder } = bundleIn('runs');
  for (const cacheFolder of [folder, undefined]) {
    const loaded = load(file, cacheFolder);
    assert.equal(loaded.self, true, 'this is module.exports');
    assert.deepEqual(loaded.names, [file, path.dirname(file), file]);
    assert.equal(loaded.joined, path.join('a', 'b'));
    assert.equal(loaded.sibling, 'beside', 'require is relative to the bundle');
    assert.equal(loaded.sum, 45);
    assert.equal(loaded.thrownAt, '8', 'a stack trace names the bundle’s own line');
  }
});

test('the first process writes the cache once its work is done; the next compiles from it', () => {
  const { file, folder } = bundleIn('next');
  const first = load(file, folder);
  assert.equal(first.fromCache, false);
  assert.equal(first.saved, 'code cache of bundle written');
  assert.equal(caches(folder).length, 1);
  const next = load(file, folder);
  assert.equal(next.fromCache, true, 'V8 took the cache');
  assert.equal(next.saved, 'code cache of bundle used');
  assert.equal(next.sum, 45);
});

test('without a folder, the bundle loads as a module and nothing is written', () => {
  const { file } = bundleIn('none');
  const loaded = load(file, undefined);
  assert.equal(loaded.fromCache, false);
  assert.equal(loaded.saved, 'code cache of bundle not kept: no folder for it');
});

test('a changed bundle does not take the old cache, and its own replaces it', () => {
  const { file, folder } = bundleIn('changed');
  load(file, folder);
  const [old] = caches(folder);
  // Same length, other text: V8 itself checks only the source's length.
  writeFileSync(file, BUNDLE.replace('from line 8', 'from line 9'));
  const changed = load(file, folder);
  assert.equal(changed.fromCache, false);
  assert.equal(changed.saved, 'code cache of bundle written');
  assert.equal(caches(folder).length, 1, 'the other version’s cache is removed');
  assert.notEqual(caches(folder)[0], old);
  assert.equal(load(file, folder).fromCache, true);
});

test('a damaged or cut cache file is not used, and is written again', () => {
  const { file, folder } = bundleIn('damaged');
  load(file, folder);
  const cacheFile = path.join(folder, caches(folder)[0]!);
  const bytes = readFileSync(cacheFile);
  bytes[bytes.length - 10] ^= 0xff;
  writeFileSync(cacheFile, bytes);
  const damaged = load(file, folder);
  assert.equal(damaged.fromCache, false);
  assert.equal(damaged.sum, 45);
  assert.equal(damaged.saved, 'code cache of bundle written');
  assert.equal(load(file, folder).fromCache, true);
  writeFileSync(cacheFile, readFileSync(cacheFile).subarray(0, 20));
  const cut = load(file, folder);
  assert.equal(cut.fromCache, false);
  assert.equal(cut.saved, 'code cache of bundle written');
});

test('a folder that cannot be written loses only the cache', () => {
  const { file } = bundleIn('unwritable');
  // A file where the folder would be.
  const blocked = path.join(work, 'unwritable', 'blocked');
  writeFileSync(blocked, '');
  const loaded = load(file, path.join(blocked, 'cache'));
  assert.equal(loaded.fromCache, false);
  assert.equal(loaded.sum, 45);
  assert.match(loaded.saved, /^code cache of bundle not written: /);
});

test('a partial write an hour old is removed with the next write; one still being written is not', () => {
  const { file, folder } = bundleIn('partial');
  load(file, folder);
  const name = caches(folder)[0]!;
  const old = path.join(folder, `${name}.4242.abc123.tmp`);
  const recent = path.join(folder, `${name}.4343.def456.tmp`);
  writeFileSync(old, 'cut');
  writeFileSync(recent, 'being written');
  const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
  utimesSync(old, twoHoursAgo, twoHoursAgo);
  // Another version's write: the partial files are looked at then.
  writeFileSync(file, BUNDLE.replace('from line 8', 'from line 7'));
  assert.equal(load(file, folder).saved, 'code cache of bundle written');
  const left = readdirSync(folder).sort();
  assert.equal(left.length, 2);
  assert.ok(left.includes(path.basename(recent)), 'the recent partial file is kept');
  assert.ok(!left.includes(path.basename(old)), 'the abandoned one is removed');
});
