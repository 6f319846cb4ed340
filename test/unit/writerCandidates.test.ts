import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { hole, type Template, template } from '../../server/src/engine/evaluation';
import { unify, WriterCandidates, type WriterTemplate } from '../../server/src/engine/state';
import { seededRandom } from '../seededRandom';

const WORDS = ['s3://acme/', 'env:/', 'prod', 'stage', '/', 'vpc', 'net', 'terraform.tfstate', 'a', 'ab', 'b'];

/** A template of 1–5 parts, texts from a few words (so that many overlap) and holes, segment or not. */
function randomTemplate(random: () => number): Template {
  const parts: (string | ReturnType<typeof hole>)[] = [];
  const count = 1 + Math.floor(random() * 5);
  for (let i = 0; i < count; i++) {
    if (random() < 0.35) parts.push(hole(`h${i}`, ['unknown'], random() < 0.5));
    else
      parts.push(
        WORDS[Math.floor(random() * WORDS.length)]! +
          (random() < 0.3 ? WORDS[Math.floor(random() * WORDS.length)]! : ''),
      );
  }
  return template(...parts);
}

/** A text some template spells: its holes filled with words. */
function spelled(of: Template, random: () => number): string {
  return of.map((part) => (typeof part === 'string' ? part : WORDS[Math.floor(random() * WORDS.length)]!)).join('');
}

describe('the writers a read known as a whole can fit', () => {
  test('are exactly those that unify with it, found by its prefixes and suffixes', () => {
    const random = seededRandom(46);
    const templates: WriterTemplate[] = Array.from({ length: 400 }, (_, index) => {
      const shape = randomTemplate(random);
      return { id: `w${index}`, template: shape, pieces: [], anyWorkspace: false };
    });
    const candidates = new WriterCandidates(templates);
    let fitting = 0;
    for (let round = 0; round < 600; round++) {
      const text =
        round % 2 === 0
          ? spelled(templates[round % templates.length]!.template, random)
          : spelled(randomTemplate(random), random);
      const reader = template(text);
      const everyWriter = templates.filter((writer) => unify(reader, writer.template) !== undefined).map((w) => w.id);
      const found = candidates.forText(text);
      const fromCandidates = found.filter((writer) => unify(reader, writer.template) !== undefined).map((w) => w.id);
      assert.deepEqual(fromCandidates, everyWriter, `the writers fitting ${JSON.stringify(text)}`);
      // In the order given, each once.
      assert.deepEqual(
        found.map((w) => Number(w.id.slice(1))),
        [...new Set(found.map((w) => Number(w.id.slice(1))))].sort((a, b) => a - b),
      );
      fitting += everyWriter.length;
    }
    assert.ok(fitting > 600, `reads fit some writers (${fitting} fits): the check is not vacuous`);
  });

  test('a read tries the writers its text can start and end with, not every writer', () => {
    const templates: WriterTemplate[] = Array.from({ length: 1000 }, (_, index) => ({
      id: `m${index}`,
      template: template(
        's3://acme/env:/',
        hole('workspace', ['run time'], true),
        `/roots/m${index}/terraform.tfstate`,
      ),
      pieces: [],
      anyWorkspace: true,
    }));
    const candidates = new WriterCandidates(templates);
    assert.deepEqual(
      candidates.forText('s3://acme/env:/prod/roots/m7/terraform.tfstate').map((w) => w.id),
      ['m7'],
    );
    assert.deepEqual(candidates.forText('s3://acme/retired/m7/terraform.tfstate'), []);
  });
});
