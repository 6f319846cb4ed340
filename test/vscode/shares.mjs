// Terrace's share of the waits in a fresh window over VS Code's own floor (test/vscode/floor), measured in the
// same run: the floor's VSIX packaged here, fresh windows of the floor's and of Terrace's alternating on one
// folder (test/vscode/shares/windowShare.test.ts measures each), their medians and Terrace's share written to
// test-results/vscode/floor-shares.json and printed as a table.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** How many windows of each a folder gets (TERRACE_SHARE_WINDOWS, default 3): medians of these. */
export const SHARE_WINDOWS = Math.max(1, Number(process.env.TERRACE_SHARE_WINDOWS ?? 3));

/** The floor's VSIX, packaged from a copy of test/vscode/floor; undefined (and why, on stderr) when it cannot be. */
export function packageFloor(repoRoot, tmp) {
  const source = path.join(tmp, 'floor-source');
  cpSync(path.join(repoRoot, 'test', 'vscode', 'floor'), source, { recursive: true });
  const out = path.join(tmp, 'floor.vsix');
  const packaged = spawnSync(
    'npx',
    ['--yes', '@vscode/vsce@3.9.2', 'package', '--no-dependencies', '--allow-missing-repository', '--out', out],
    { cwd: source, encoding: 'utf8', timeout: 180_000 },
  );
  if (packaged.status !== 0 || !existsSync(out)) {
    console.error(`vscode tier: the floor could not be packaged:\n${packaged.stdout}${packaged.stderr}`);
    return undefined;
  }
  return out;
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** A folder's windows (their figures' files, in the order they ran) made medians and Terrace's share. */
export function folderShares(files) {
  const windows = files.filter((file) => existsSync(file)).map((file) => JSON.parse(readFileSync(file, 'utf8')));
  const of = (subject) => windows.filter((window) => window.subject === subject);
  const figures = (subject) => {
    const list = of(subject);
    if (list.length === 0) return undefined;
    return {
      windows: list.length,
      firstProblemsMs: median(list.map((window) => window.firstProblemsMs)),
      // From the extension's activation, which VS Code decides (seconds, and its noise, on a busy machine).
      afterActivationMs: median(list.map((window) => window.firstProblemsMs - window.steps.activated)),
      drawnMs: median(list.map((window) => window.drawnMs)),
      // Terrace's: an edit → its problem in the editor, and → the panel redrawn (no floor: VS Code's part is small).
      ...(list.every((window) => window.hover)
        ? { hoverAnsweredMs: median(list.map((window) => window.hover.answeredMs)) }
        : {}),
      ...(list.every((window) => window.edit)
        ? {
            editDiagnosticsMs: median(list.map((window) => window.edit.diagnosticsMs)),
            editRedrawnMs: median(list.map((window) => window.edit.redrawnMs)),
          }
        : {}),
      runs: list,
    };
  };
  const floor = figures('floor');
  const terrace = figures('terrace');
  const share =
    floor && terrace
      ? {
          firstProblemsMs: terrace.firstProblemsMs - floor.firstProblemsMs,
          afterActivationMs: terrace.afterActivationMs - floor.afterActivationMs,
          drawnMs: terrace.drawnMs - floor.drawnMs,
          firstProblemsRatio: Number((terrace.firstProblemsMs / floor.firstProblemsMs).toFixed(2)),
          drawnRatio: Number((terrace.drawnMs / floor.drawnMs).toFixed(2)),
        }
      : undefined;
  return { floor, terrace, share };
}

/** Every folder's shares to test-results/vscode/floor-shares.json, and a table of the medians on stdout. */
export function writeShares(resultsDir, byFolder) {
  mkdirSync(resultsDir, { recursive: true });
  writeFileSync(path.join(resultsDir, 'floor-shares.json'), `${JSON.stringify(byFolder, null, 2)}\n`);
  const seconds = (ms) => (ms === undefined ? '–' : `${(ms / 1000).toFixed(2)} s`);
  const rows = [];
  for (const [folder, { floor, terrace, share }] of Object.entries(byFolder)) {
    rows.push(
      `${folder}: window → first problems: floor ${seconds(floor?.firstProblemsMs)}, Terrace ${seconds(terrace?.firstProblemsMs)}, share ${seconds(share?.firstProblemsMs)}; after activation: floor ${seconds(floor?.afterActivationMs)}, Terrace ${seconds(terrace?.afterActivationMs)}, share ${seconds(share?.afterActivationMs)}`,
      `${folder}: command → drawn: floor ${seconds(floor?.drawnMs)}, Terrace ${seconds(terrace?.drawnMs)}, share ${seconds(share?.drawnMs)}`,
      `${folder}: a first hover card answered: Terrace ${seconds(terrace?.hoverAnsweredMs)}; an edit → its problem: Terrace ${seconds(terrace?.editDiagnosticsMs)}; → the panel redrawn: Terrace ${seconds(terrace?.editRedrawnMs)}`,
    );
  }
  const windows = process.env.TERRACE_SHARE_AGAIN ? 'windows opened again in their profile' : 'fresh windows';
  console.log(
    `\nvscode tier: Terrace's share over VS Code's floor (medians of ${SHARE_WINDOWS} ${windows} each)\n${rows.join('\n')}`,
  );
}
