// Runs the vscode-tier suite in desktop VS Code with @vscode/test-electron, on machines that can
// download VS Code (or already have it in the cache).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { cacheDir } from '../harness/cache.mjs';

const cachePath = path.join(cacheDir, 'vscode-electron');
const version = process.env.TERRACE_VSCODE_VERSION ?? 'stable';
const RELEASES_URL = 'https://update.code.visualstudio.com/api/releases/stable';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function cachedBuilds() {
  if (!existsSync(cachePath)) return [];
  return readdirSync(cachePath).filter((name) => name.startsWith('vscode-'));
}

function hasCommand(name) {
  return spawnSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' }).status === 0;
}

/** Whether this runner can work here, and why not: VS Code must be cached or downloadable, and on Linux there must be a display. */
export async function electronAvailability() {
  if (process.platform === 'linux' && !process.env.DISPLAY && !hasCommand('Xvfb')) {
    return { ok: false, why: 'no DISPLAY and no Xvfb to start one' };
  }
  if (cachedBuilds().length > 0) return { ok: true, why: `cached in ${cachePath}` };
  try {
    const response = await fetch(RELEASES_URL, { signal: AbortSignal.timeout(4000) });
    return response.ok
      ? { ok: true, why: 'VS Code can be downloaded' }
      : { ok: false, why: `${RELEASES_URL} answered ${response.status}` };
  } catch (error) {
    const cause = error?.cause?.code ?? error?.name ?? String(error);
    return { ok: false, why: `VS Code cannot be downloaded here (${cause})` };
  }
}

/** The version in the product's package.json next to the executable (Linux, Windows and macOS layouts). */
function installedVersion(executable) {
  const dir = path.dirname(executable);
  for (const candidate of [
    path.join(dir, 'resources', 'app', 'package.json'),
    path.join(dir, '..', 'Resources', 'app', 'package.json'),
  ]) {
    if (existsSync(candidate)) return JSON.parse(readFileSync(candidate, 'utf8')).version;
  }
  return 'unknown';
}

/** An Xvfb display for a headless Linux machine; stopped by the returned function. */
async function virtualDisplay() {
  if (process.platform !== 'linux' || process.env.DISPLAY) return () => undefined;
  const display = `:${90 + Math.floor(Math.random() * 100)}`;
  const xvfb = spawn('Xvfb', [display, '-screen', '0', '1280x1024x24', '-nolisten', 'tcp'], { stdio: 'ignore' });
  xvfb.on('error', (error) => console.error(`electron runner: no virtual display (${error.message})`));
  await sleep(500);
  process.env.DISPLAY = display;
  return () => {
    xvfb.kill();
    delete process.env.DISPLAY;
  };
}

/**
 * @param {object} options
 * @param {string} options.extensionDevelopmentPath
 * @param {string} options.extensionTestsPath
 * @param {string} options.workspace
 * @param {Record<string, string>} options.env
 * @param {string} options.tmp
 * @param {string[]} [options.installExtensions] VSIX files installed before VS Code starts
 * @returns {Promise<number>} the suite's exit code
 */
export async function runWithElectron(options) {
  const { download, resolveCliArgsFromVSCodeExecutablePath, runTests, TestRunFailedError } = await import(
    '@vscode/test-electron'
  );
  mkdirSync(cachePath, { recursive: true });
  let executable;
  try {
    executable = await download({ version, cachePath, timeout: 30_000 });
  } catch (error) {
    console.error(`electron runner: could not get VS Code ${version}: ${error?.message ?? error}`);
    return 1;
  }
  console.log(`runner: @vscode/test-electron, VS Code ${installedVersion(executable)} (${executable})`);
  const extensionsDir = path.join(options.tmp, 'extensions');
  const installs = options.installExtensions ?? [];
  for (const vsix of installs) {
    const [cli, ...args] = resolveCliArgsFromVSCodeExecutablePath(executable);
    const install = spawnSync(cli, [...args, '--extensions-dir', extensionsDir, '--install-extension', vsix], {
      encoding: 'utf8',
      shell: process.platform === 'win32',
    });
    if (install.status !== 0) {
      console.error(`electron runner: could not install ${vsix}:\n${install.stdout}${install.stderr}`);
      return 1;
    }
  }
  const stopDisplay = await virtualDisplay();
  try {
    return await runTests({
      vscodeExecutablePath: executable,
      extensionDevelopmentPath: options.extensionDevelopmentPath,
      extensionTestsPath: options.extensionTestsPath,
      extensionTestsEnv: { ...options.env, TERRACE_VSCODE_EXTENSIONS_DIR: extensionsDir },
      launchArgs: [
        options.workspace,
        `--user-data-dir=${path.join(options.tmp, 'user-data')}`,
        `--extensions-dir=${extensionsDir}`,
        // Only the extension under development runs, unless the run installed some on purpose.
        ...(installs.length > 0 ? [] : ['--disable-extensions']),
        '--disable-telemetry',
      ],
    });
  } catch (error) {
    // runTests rejects with TestRunFailedError, carrying the exit code, when VS Code exits non-zero.
    if (error instanceof TestRunFailedError) return error.code || 1;
    console.error(`electron runner: ${error?.message ?? error}`);
    return 1;
  } finally {
    stopDisplay();
  }
}
