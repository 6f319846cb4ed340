import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { folderRelative } from '../../server/src/engine/evaluation';

/** Every path of up to three segments from a few names, some sharing a prefix (`a`, `ab`), some with dots. */
function paths(): string[] {
  const names = ['a', 'ab', 'b', 'a.b', '.x'];
  const all = ['/'];
  for (const first of names) {
    all.push(`/${first}`);
    for (const second of names) {
      all.push(`/${first}/${second}`);
      for (const third of ['a', 'ab', 'c']) all.push(`/${first}/${second}/${third}`);
    }
  }
  return all;
}

test('folderRelative is path.relative with / separators and . for the folder itself, for every pair', () => {
  const all = paths();
  let compared = 0;
  for (const from of all)
    for (const to of all) {
      assert.equal(folderRelative(from, to), path.posix.relative(from, to) || '.', `${from} → ${to}`);
      compared++;
    }
  assert.equal(compared, all.length ** 2);
});

test('folderRelative: paths with ., .., empty or trailing segments, or relative ones, as path.relative has them', () => {
  const cases: [string, string, string][] = [
    ['/live/prod/app', '/live/prod/vpc', '../vpc'],
    ['/live/prod', '/live/prod/app/terragrunt.hcl', 'app/terragrunt.hcl'],
    ['/live/prod/app', '/live', '../..'],
    ['/live/./prod/app', '/live/prod/vpc', '../vpc'],
    ['/live//prod/app', '/live/prod/vpc', '../vpc'],
    ['/live/prod/app/', '/live/prod/app/x', 'x'],
    ['/live/other/../prod/app', '/live/prod/app', '.'],
    ['/live/prod', '/live/production', '../production'],
  ];
  for (const [from, to, want] of cases) assert.equal(folderRelative(from, to), want, `${from} → ${to}`);
  assert.equal(folderRelative('live/a', 'live/b'), path.relative('live/a', 'live/b'));
});
