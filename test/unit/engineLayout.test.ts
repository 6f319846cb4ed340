import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';

/**
 * The engine's layout as ARCHITECTURE.md states it: a folder per stage, entered from outside only through
 * its index.ts, the folders importing each other without a cycle, and no editor code in any of them.
 */
const repo = path.resolve(__dirname, '..', '..');
const engine = path.join(repo, 'server', 'src', 'engine');

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'fixtures' || entry.name === 'node_modules' ? [] : tsFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** The module specifiers a file imports or re-exports. */
function imports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s+'([^']+)'|import\('([^']+)'\)/g)].map(
    (match) => match[1] ?? match[2]!,
  );
}

/** The engine folder a path is in, or undefined outside the engine. */
function folderOf(file: string): string | undefined {
  const relative = path.relative(engine, file);
  if (relative.startsWith('..') || path.isAbsolute(relative)) return undefined;
  return relative.split(path.sep)[0];
}

const folders = readdirSync(engine, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

describe('the engine in folders by stage', () => {
  test('every folder has an index.ts, and no file sits outside a folder', () => {
    assert.ok(folders.length >= 8, `${folders.length} folders`);
    for (const folder of folders) assert.ok(tsFiles(path.join(engine, folder)).some((f) => f.endsWith('index.ts')));
    assert.deepEqual(
      readdirSync(engine).filter((name) => name.endsWith('.ts')),
      [],
    );
  });

  test('no engine file imports editor code or the protocol', () => {
    for (const file of tsFiles(engine)) {
      for (const specifier of imports(file)) {
        assert.ok(
          !/^vscode($|-languageserver|-languageclient|-jsonrpc)/.test(specifier) && !specifier.endsWith('/protocol'),
          `${path.relative(repo, file)} imports ${specifier}`,
        );
      }
    }
  });

  test('a folder enters another only through its index.ts, and the folders form no cycle', () => {
    const uses = new Map<string, Set<string>>(folders.map((folder) => [folder, new Set()]));
    for (const file of tsFiles(engine)) {
      const from = folderOf(file)!;
      for (const specifier of imports(file)) {
        if (!specifier.startsWith('.')) continue;
        const target = path.resolve(path.dirname(file), specifier);
        const to = folderOf(target);
        assert.ok(to !== undefined, `${path.relative(repo, file)} reaches outside the engine: ${specifier}`);
        if (to === from) continue;
        assert.equal(
          path.relative(path.join(engine, to), target).replace(/^index$/, ''),
          '',
          `${path.relative(repo, file)} imports ${specifier}, not ../${to}`,
        );
        uses.get(from)!.add(to);
      }
    }
    // Kahn's algorithm on the folders: every folder must come out.
    const order: string[] = [];
    const waiting = new Map([...uses].map(([folder, needs]) => [folder, new Set(needs)]));
    while (waiting.size > 0) {
      const ready = [...waiting].filter(([, needs]) => [...needs].every((need) => !waiting.has(need)));
      assert.ok(ready.length > 0, `the folders ${[...waiting.keys()].join(', ')} import each other in a cycle`);
      for (const [folder] of ready) {
        order.push(folder);
        waiting.delete(folder);
      }
    }
    assert.ok(order.indexOf('hcl') < order.indexOf('evaluation'));
    assert.ok(order.indexOf('evaluation') < order.indexOf('workspace'));
    assert.ok(order.indexOf('workspace') < order.indexOf('state'));
    assert.ok(order.indexOf('state') < order.indexOf('kinds'));
    assert.ok(order.indexOf('kinds') < order.indexOf('analysis'));
  });

  test('each kind of node is a folder of kinds/, entered through its index.ts, and imports no other kind', () => {
    const kindsDir = path.join(engine, 'kinds');
    const kinds = readdirSync(kindsDir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    assert.ok(kinds.length >= 3, `${kinds.length} kinds`);
    for (const kind of kinds) assert.ok(readdirSync(path.join(kindsDir, kind)).includes('index.ts'));
    const kindOf = (file: string): string | undefined => {
      const first = path.relative(kindsDir, file).split(path.sep)[0]!;
      return kinds.includes(first) ? first : undefined;
    };
    for (const file of tsFiles(engine)) {
      for (const specifier of imports(file)) {
        if (!specifier.startsWith('.')) continue;
        const target = path.resolve(path.dirname(file), specifier);
        const to = kindOf(target);
        if (to === undefined || to === kindOf(file)) continue;
        const where = `${path.relative(repo, file)} imports ${specifier}`;
        assert.equal(kindOf(file), undefined, `${where}: a kind of another`);
        assert.equal(path.relative(path.join(kindsDir, to), target).replace(/^index$/, ''), '', `${where}, not ${to}`);
      }
    }
  });

  test('code outside the engine enters it through index.ts (the protocol takes one type from its own file)', () => {
    const outside = ['server/src', 'client/src', 'runner/src', 'webview/src', 'test'].flatMap((dir) =>
      tsFiles(path.join(repo, dir)).filter((file) => folderOf(file) === undefined),
    );
    const deep: string[] = [];
    for (const file of outside) {
      for (const specifier of imports(file)) {
        if (!specifier.startsWith('.')) continue;
        const target = path.resolve(path.dirname(file), specifier);
        const to = folderOf(target);
        if (to !== undefined && path.relative(path.join(engine, to), target).replace(/^index$/, '') !== '')
          deep.push(`${path.relative(repo, file)} -> ${specifier}`);
      }
    }
    assert.deepEqual(deep, ['server/src/protocol.ts -> ./engine/config/pipelineConfig']);
  });
});
