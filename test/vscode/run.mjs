// The vscode tier, in a real VS Code extension host with a copy of test/vscode/workspace as the open folder:
//   1. the mocha suite of test/vscode/suite (dist/test/vscode/index.js), with this repository as the
//      extension under development;
//   2. the example suite of test/vscode/example (dist/test/vscode/example.js), on a copy of examples/monorepo:
//      the panel as a user first sees it, and the README's pictures (the code-server runner takes them);
//   3. the VSIX suite of test/vscode/vsix (dist/test/vscode/vsix.js): `npm run package` makes the VSIX, which
//      is installed into a fresh VS Code the way `code --install-extension` does; the extension under
//      development is an empty one, so what runs is the packaged bundle, not the source tree;
//   4. the Restricted Mode suite of test/vscode/restricted (dist/test/vscode/restricted.js), code-server only:
//      workspace trust on, the folder (examples/local with examples/cycle) not trusted, spies for git,
//      terraform, terragrunt and tofu first on the PATH; the suite has the runner trust the folder halfway;
//   5. the real-shape suite of test/vscode/realShape (dist/test/vscode/realShape.js): the same VSIX on
//      a generated plain monorepo of 50 roots, then Terragrunt live repositories (test/realShapes) of 300
//      units, then of 3,000: a fresh window's start-up and the graph panel's timings
//      (test-results/vscode/panel-times-{plain,300,3000}.json), and the README's pictures of 300 units.
//   6. on the example and on each real-shape repository, before its suite: fresh windows with the floor's VSIX
//      (test/vscode/floor, the least an extension can do) and with Terrace's, alternating, each running the
//      suite of test/vscode/shares (dist/test/vscode/shares.js): Terrace's share of a fresh window's first
//      problems and of Show Graph → drawn over VS Code's own, medians to test-results/vscode/floor-shares.json.
// The suites that time a fresh window (2, 5 and 6) open it in a browser that has run for 10 s, as a user opens
// a window in a browser already running (codeServerRunner.mjs, BROWSER_SETTLED_MS, says why).
//
// Runners (TERRACE_VSCODE_RUNNER):
//   electron     desktop VS Code through @vscode/test-electron (needs a download or a cached build)
//   code-server  code-server from npm, driven by headless chromium; works offline
//   (unset)      electron when VS Code is cached or can be downloaded, else code-server
// Other settings: TERRACE_VSCODE_TIMEOUT_MS (default 180000), TERRACE_VSCODE_GREP (run matching tests only),
// TERRACE_VSCODE_SUITES (run the suites whose names match only, e.g. `share-example`), TERRACE_SHARE_WINDOWS
// (fresh windows of the floor's and of Terrace's on each timed folder, default 3), TERRACE_SHARE_FOLDER (a
// folder of one's own timed too, its windows' suites named `share-folder-<its name>-…`), TERRACE_SHARE_GRAPH_AFTER_MS
// (Show Graph that long after the first problems in those windows, as a user who reads them first; default 0),
// TERRACE_SHARE_AGAIN=1 (code-server: each window timed is the second of its profile, the first one's caches there),
// TERRACE_VSCODE_VERBOSE=1 (all workbench logs), TERRACE_KEEP_TMP=1 (keep the scratch directory).
//
// Prints the suites' `N passed, N failed, N skipped` as its last line; the exit code is non-zero when one
// failed or could not run. With TERRACE_VSCODE_GREP set, the VSIX suite is left out (and says so), and the
// example suite unless the pattern matches its name.
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from '../harness/cache.mjs';
import { programSpies } from '../harness/programSpies.mjs';
import { freePort, runWithCodeServer, sharedBrowser } from './codeServerRunner.mjs';
import { electronAvailability, runWithElectron } from './electronRunner.mjs';
import { folderShares, packageFloor, SHARE_WINDOWS, writeShares } from './shares.mjs';

const started = Date.now();
const extensionTestsPath = path.join(repoRoot, 'dist', 'test', 'vscode', 'index.js');
if (!existsSync(extensionTestsPath) || !existsSync(path.join(repoRoot, 'dist', 'client.js'))) {
  console.error('vscode tier: build first (npm run build): dist/client.js or dist/test/vscode/index.js is missing');
  process.exit(1);
}

async function chooseRunner() {
  const asked = process.env.TERRACE_VSCODE_RUNNER;
  if (asked === 'electron' || asked === 'code-server') return { runner: asked, why: 'TERRACE_VSCODE_RUNNER' };
  if (asked) {
    console.error(`vscode tier: unknown TERRACE_VSCODE_RUNNER '${asked}' (electron or code-server)`);
    process.exit(2);
  }
  const electron = await electronAvailability();
  return electron.ok ? { runner: 'electron', why: electron.why } : { runner: 'code-server', why: electron.why };
}

const { runner, why } = await chooseRunner();
console.log(`vscode tier: ${runner} runner (${why})`);

// A '+' in every suite's folder path: VS Code writes it in a URI as '%2B', Node's pathToFileURL as '+', and
// the two must still name one folder.
const tmp = mkdtempSync(path.join(os.tmpdir(), 'terrace-vscode+'));
const timeoutMs = Number(process.env.TERRACE_VSCODE_TIMEOUT_MS ?? 180_000);
const grep = process.env.TERRACE_VSCODE_GREP;
const only = process.env.TERRACE_VSCODE_SUITES ? new RegExp(process.env.TERRACE_VSCODE_SUITES) : undefined;

/**
 * One suite in a fresh VS Code (its own data folders under `tmp/<name>`, its own copy of the workspace, so
 * that what the extension writes never lands in the repository). Resolves to the suite's counts, or
 * `undefined` when it did not report them.
 */
async function runSuite(
  name,
  {
    extensionDevelopmentPath,
    extensionTestsPath,
    installExtensions,
    folder = path.join('test', 'vscode', 'workspace'),
    env: suiteEnv = {},
    untrusted = false,
    runningBrowser = false,
    browser,
    port,
    profileOf,
  },
) {
  if (only && !only.test(name)) return null;
  // A window opened again (`profileOf`: the suite whose window it follows) has that window's profile and folder.
  const dir = path.join(tmp, profileOf ?? name);
  const workspace = path.join(dir, 'workspace');
  if (!profileOf) cpSync(path.resolve(repoRoot, folder), workspace, { recursive: true });
  const resultsFile = path.join(dir, 'results.json');
  const env = {
    ...suiteEnv,
    TERRACE_VSCODE_RESULTS: resultsFile,
    TERRACE_VSCODE_RESULTS_DIR: path.join(repoRoot, 'test-results', 'vscode'),
  };
  // Only the code-server runner can take the workbench's picture (`terrace-screenshot <file>` on the console).
  if (runner === 'code-server') env.TERRACE_VSCODE_SCREENSHOT_DIR = path.join(repoRoot, 'test-results', 'vscode');
  if (grep) env.TERRACE_VSCODE_GREP = grep;
  const options = {
    extensionDevelopmentPath,
    extensionTestsPath,
    installExtensions,
    workspace,
    env,
    tmp: dir,
    timeoutMs,
    untrusted,
    runningBrowser,
    sharedBrowser: browser,
    port,
    again: profileOf !== undefined,
    screenshotOnFailure: path.join(repoRoot, 'test-results', 'vscode', `${name}-workbench-on-failure.png`),
  };
  console.log(`\nvscode tier: the ${name} suite`);
  let code;
  try {
    code = runner === 'electron' ? await runWithElectron(options) : await runWithCodeServer(options);
  } catch (error) {
    console.error(`vscode tier (${name}):`, error);
    code = 1;
  }
  try {
    const results = JSON.parse(readFileSync(resultsFile, 'utf8'));
    for (const failure of results.failures) console.error(`FAILED: ${failure.title}\n  ${failure.error}`);
    return { ...results, code };
  } catch {
    console.error(`vscode tier: the ${name} suite did not report results (exit code ${code})`);
    return undefined;
  }
}

/** The Restricted Mode suite's folder: examples/local (plannable offline), with examples/cycle as `cycle/`. */
function restrictedWorkspace() {
  const folder = path.join(tmp, 'restricted-source');
  cpSync(path.join(repoRoot, 'examples', 'local'), folder, { recursive: true });
  cpSync(path.join(repoRoot, 'examples', 'cycle'), path.join(folder, 'cycle'), { recursive: true });
  return folder;
}

/** `npm run package`, the README's way to a VSIX, writing into the scratch folder. */
function packageVsix() {
  const out = path.join(tmp, 'vsix', 'terrace.vsix');
  mkdirSync(path.dirname(out), { recursive: true });
  const packageStarted = Date.now();
  return new Promise((resolve) => {
    let output = '';
    const child = spawn('npm', ['run', 'package', '--', '--out', out], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.on('error', (error) => {
      output += String(error);
    });
    child.on('close', (code) => {
      if (code !== 0 || !existsSync(out)) {
        console.error(`vscode tier: npm run package failed (exit code ${code}):\n${output.trim()}`);
        resolve(undefined);
        return;
      }
      const files = output.match(/\((\d+) files?,/)?.[1] ?? '?';
      const seconds = ((Date.now() - packageStarted) / 1000).toFixed(1);
      const kib = (statSync(out).size / 1024).toFixed(0);
      console.log(`vscode tier: npm run package made a VSIX of ${files} files, ${kib} KiB, in ${seconds}s`);
      resolve(out);
    });
  });
}

const suites = [];
suites.push(await runSuite('development', { extensionDevelopmentPath: repoRoot, extensionTestsPath }));
// With a pattern, a suite none of whose tests match would report nothing passed: it is left out.
if (!grep || new RegExp(grep).test('the example monorepo')) {
  suites.push(
    await runSuite('example', {
      extensionDevelopmentPath: repoRoot,
      extensionTestsPath: path.join(repoRoot, 'dist', 'test', 'vscode', 'example.js'),
      folder: path.join('examples', 'monorepo'),
      runningBrowser: true,
    }),
  );
}

const wantsRestricted = !grep || new RegExp(grep).test('Restricted Mode');
const vsix = grep && !wantsRestricted ? undefined : await packageVsix();
if (grep) {
  console.log('vscode tier: the vsix suite is left out while TERRACE_VSCODE_GREP is set');
} else {
  suites.push(
    vsix
      ? await runSuite('vsix', {
          extensionDevelopmentPath: path.join(repoRoot, 'test', 'vscode', 'vsix', 'host'),
          extensionTestsPath: path.join(repoRoot, 'dist', 'test', 'vscode', 'vsix.js'),
          installExtensions: [vsix],
        })
      : undefined,
  );
}

// Restricted Mode applies to installed extensions (one under development runs whatever it declares): the
// VSIX. Trusting the folder halfway takes the workbench's UI, which only the code-server runner drives.
if (runner !== 'code-server') {
  console.log('vscode tier: the restricted suite needs the code-server runner (it trusts the folder in the workbench)');
} else if (wantsRestricted) {
  suites.push(
    vsix
      ? await runSuite('restricted', {
          extensionDevelopmentPath: path.join(repoRoot, 'test', 'vscode', 'vsix', 'host'),
          extensionTestsPath: path.join(repoRoot, 'dist', 'test', 'vscode', 'restricted.js'),
          installExtensions: [vsix],
          folder: restrictedWorkspace(),
          env: programSpies(path.join(tmp, 'restricted-spies')),
          untrusted: true,
        })
      : undefined,
  );
}

// Terrace's share of a fresh window's waits over VS Code's floor: on each folder below, fresh windows with the
// floor's VSIX and with Terrace's, alternating (test/vscode/shares.mjs).
const floorVsix = grep || !vsix ? undefined : packageFloor(repoRoot, tmp);
if (!grep && vsix && !floorVsix) suites.push(undefined);
const shares = {};
// The code-server runner opens the share windows in one browser, started once (each window has its own origin).
const shareBrowser =
  floorVsix && runner === 'code-server' ? sharedBrowser(path.join(tmp, 'share-chromium')) : undefined;
// TERRACE_SHARE_AGAIN=1: each window counted is the second of its profile, as a user reopens a folder (what the first
// left is there: the code caches, the layouts kept, the browser's cache of the origin); the first is not counted.
const shareAgain = Boolean(process.env.TERRACE_SHARE_AGAIN) && runner === 'code-server';
if (process.env.TERRACE_SHARE_AGAIN && !shareAgain) console.log('vscode tier: TERRACE_SHARE_AGAIN needs code-server');
async function shareWindows(name, folder) {
  if (!floorVsix) return;
  const files = [];
  for (let window = 0; window < SHARE_WINDOWS; window++) {
    for (const subject of ['floor', 'terrace']) {
      const suite = `share-${name}-${subject}-${window + 1}`;
      const file = path.join(tmp, `share-${name}-${subject}-${window}.json`);
      files.push(file);
      const options = (shareFile, opened) => ({
        extensionDevelopmentPath: path.join(repoRoot, 'test', 'vscode', 'vsix', 'host'),
        extensionTestsPath: path.join(repoRoot, 'dist', 'test', 'vscode', 'shares.js'),
        installExtensions: [subject === 'floor' ? floorVsix : vsix],
        folder,
        env: {
          TERRACE_SHARE_SUBJECT: subject,
          TERRACE_SHARE_FILE: shareFile,
          TERRACE_SHARE_GRAPH_AFTER_MS: process.env.TERRACE_SHARE_GRAPH_AFTER_MS ?? '0',
          TERRACE_SHARE_OPENED: opened,
        },
        runningBrowser: true,
        browser: shareBrowser,
      });
      if (!shareAgain) {
        suites.push(await runSuite(suite, options(file, 'fresh')));
        continue;
      }
      const port = await freePort();
      suites.push(await runSuite(suite, { ...options(`${file}.first`, 'first-of-profile'), port }));
      suites.push(await runSuite(`${suite}-again`, { ...options(file, 'again'), port, profileOf: suite }));
    }
  }
  const measured = folderShares(files);
  if (measured.floor || measured.terrace) shares[name] = measured;
}
await shareWindows('example', path.join('examples', 'monorepo'));

// Repositories of real shape and size, the VSIX installed: generated Terragrunt live repositories of 300
// units (timings and the README's pictures) and of 3,000 (timings), and a plain monorepo of 50 roots (a
// fresh window's start-up and the panel on a small graph).
const realShapes = [
  { name: 'real-shape-plain', shape: 'plain-subscriptions', args: [] },
  { name: 'real-shape', shape: 'terragrunt-live', args: ['--units', '300'], units: 300 },
  { name: 'real-shape-3000', shape: 'terragrunt-live', args: ['--units', '3000'], units: 3000 },
];
for (const { name, shape, args, units } of realShapes) {
  if (grep || !vsix) break;
  // Not written when TERRACE_VSCODE_SUITES leaves out its suite and its windows.
  if (only && ![name, `share-${name}-floor-1`, `share-${name}-terrace-1`].some((suite) => only.test(suite))) continue;
  const folder = path.join(tmp, `${name}-repository`);
  const written = await new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/realShapes/write.ts', shape, folder, ...args], {
      cwd: repoRoot,
      stdio: 'inherit',
    });
    child.on('close', (code) => resolve(code === 0));
  });
  if (written) await shareWindows(name, folder);
  suites.push(
    written && vsix
      ? await runSuite(name, {
          extensionDevelopmentPath: path.join(repoRoot, 'test', 'vscode', 'vsix', 'host'),
          extensionTestsPath: path.join(repoRoot, 'dist', 'test', 'vscode', 'realShape.js'),
          installExtensions: [vsix],
          folder,
          env: { TERRACE_REAL_SHAPE: shape, ...(units ? { TERRACE_REAL_SHAPE_UNITS: String(units) } : {}) },
          runningBrowser: true,
        })
      : undefined,
  );
}

// A folder of one's own (a public monorepo checked out, say), timed as the folders above: TERRACE_SHARE_FOLDER.
const ownFolder = process.env.TERRACE_SHARE_FOLDER && path.resolve(process.env.TERRACE_SHARE_FOLDER);
if (ownFolder && !grep) await shareWindows(`folder-${path.basename(ownFolder)}`, ownFolder);

await shareBrowser?.close();
if (Object.keys(shares).length > 0) writeShares(path.join(repoRoot, 'test-results', 'vscode'), shares);

// A suite left out by TERRACE_VSCODE_SUITES is null; one that did not report is undefined.
for (let i = suites.length - 1; i >= 0; i--) if (suites[i] === null) suites.splice(i, 1);
const reported = suites.filter(Boolean);
const passed = reported.reduce((sum, results) => sum + results.passed, 0);
const skipped = reported.reduce((sum, results) => sum + results.skipped, 0);
// A suite that did not report counts as one failure.
const failed = reported.reduce((sum, results) => sum + results.failed, 0) + (suites.length - reported.length);
const ok = reported.length === suites.length && reported.every((results) => results.code === 0) && failed === 0;

// Kept when asked, or for a look at the logs when something failed.
if (process.env.TERRACE_KEEP_TMP || !ok) console.log(`vscode tier: kept ${tmp}`);
else rmSync(tmp, { recursive: true, force: true });
const seconds = ((Date.now() - started) / 1000).toFixed(1);
console.log(`vscode tier: ${runner} runner, ${suites.length} suites, ${seconds}s`);
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(ok && passed > 0 ? 0 : 1);
