import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { grouped } from '../../server/src/languageServer/indexingProgress';

test('a count of files is written as toLocaleString writes it in en-US, its thousands grouped by commas', () => {
  const counts = [0, 7, 42, 999, 1000, 1001, 11_024, 48_000, 100_000, 999_999, 1_000_000, 1_234_567_890];
  for (const count of counts) assert.equal(grouped(count), count.toLocaleString('en-US'), String(count));
  assert.equal(grouped(11_024), '11,024');
  assert.equal(grouped(1_234_567), '1,234,567');
});
