// Runs the vscode-tier suite in code-server (a real VS Code from npm, Node extension host), offline:
// code-server on a free loopback port with its own data directories and the smoke-test driver enabled,
// headless chromium opens the workbench with a payload naming the extension under development and the
// suite; the workbench reports the suite's exit code through `codeAutomationExit`.
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { codeServer, codeServerVersion, runSetup } from '../harness/cache.mjs';
import { launchChromium } from '../harness/chromium.mjs';

/** Workbench and extension-host chatter that says nothing about the suite (shown with TERRACE_VSCODE_VERBOSE=1). */
const NOISE = new RegExp(
  [
    /^\[(AgentHost|ChatModelSelection|AccountPolicyGate|reconnection-grace-time|Service Worker)/,
    /^(Resolving|Resolved) connection token|^Creating a socket|^Updating additional builtin extensions cache/,
    /open-vsx\.org|ENOTFOUND|EAI_AGAIN|^\s+at |Timed out waiting for authentication provider/,
  ]
    .map((part) => part.source)
    .join('|'),
);

const USER_SETTINGS = {
  'workbench.startupEditor': 'none',
  'security.workspace.trust.enabled': false,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'chat.disableAIFeatures': true,
  'extensions.ignoreRecommendations': true,
  // Without it the terminal draws on a canvas and its text cannot be read from the page.
  'terminal.integrated.gpuAcceleration': 'off',
};

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * How long a browser runs before a timed window opens in it. Chromium answers no service worker's
 * update() in its first 9 s or so (measured here: calls made 4.8, 6.3 and 7.8 s after the page started
 * all end at 8.9 s, with the CPU idle; the same calls take 6–110 ms once the browser has run 10 s),
 * and each VS Code webview calls it on its service worker before its page loads. A window opened in a
 * browser just started would time that hold in its first webview: 2.5–3 s of Show Graph that a user,
 * whose browser is already running, does not wait.
 */
const BROWSER_SETTLED_MS = 10_000;

/** The browser's window: the workbench at the size the pictures and the panel's timings are taken at. */
const CHROMIUM_OPTIONS = { viewport: { width: 1600, height: 1000 } };

/**
 * A browser kept between suites (`options.sharedBrowser`): launched by the first suite that opens it (after the
 * harness is set up), closed by the caller.
 */
export function sharedBrowser(userDataDir) {
  let launched;
  return {
    open() {
      if (!launched) {
        launched = { context: launchChromium(userDataDir, CHROMIUM_OPTIONS), launchedAt: Date.now() };
        launched.context.catch(() => undefined);
      }
      return launched;
    },
    async close() {
      const context = await launched?.context.catch(() => undefined);
      await context?.close().catch(() => undefined);
    },
  };
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** True when something answers HTTP on the port (ours or not). */
function answers(port, urlPath = '/healthz') {
  return new Promise((resolve) => {
    const request = http.get({ host: '127.0.0.1', port, path: urlPath, timeout: 1000 }, (response) => {
      response.resume();
      resolve(response.statusCode === 200);
    });
    request.on('error', () => resolve(false));
    request.on('timeout', () => {
      request.destroy();
      resolve(false);
    });
  });
}

function portTaken(port) {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.on('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}

/** The process group of a detached child: killed as a whole, since the extension host outlives the browser. */
function processGroup(pid) {
  const alive = () => {
    try {
      process.kill(-pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  const signal = (name) => {
    try {
      process.kill(-pid, name);
    } catch {
      // already gone
    }
  };
  return {
    killNow: () => signal('SIGKILL'),
    async stop() {
      signal('SIGTERM');
      for (let i = 0; i < 30 && alive(); i++) await sleep(100);
      if (alive()) signal('SIGKILL');
    },
  };
}

function tail(file, lines = 30) {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

/**
 * @param {object} options
 * @param {string} options.extensionDevelopmentPath
 * @param {string} options.extensionTestsPath the suite's built index.js
 * @param {string} options.workspace the folder to open
 * @param {Record<string, string>} options.env environment of the extension host
 * @param {string} options.tmp a scratch directory for this run
 * @param {string[]} [options.installExtensions] VSIX files installed before the workbench starts
 * @param {number} options.timeoutMs
 * @param {string} [options.screenshotOnFailure]
 * @param {boolean} [options.untrusted] workspace trust on and the folder not trusted (Restricted Mode); the
 *   suite trusts it through the workbench by writing `terrace-trust-workspace` on the console
 * @param {boolean} [options.runningBrowser] open the window in a browser that has run for a while, as a user
 *   opens a new window: for the suites that time a fresh window (see BROWSER_SETTLED_MS)
 * @param {ReturnType<typeof sharedBrowser>} [options.sharedBrowser] a browser kept between suites (a new page
 *   for this one): the windows of one folder, each on its own code-server's port and so its own origin, wait for
 *   its start only once
 * @param {number} [options.port] the port code-server listens on (else TERRACE_CODE_SERVER_PORT, else a free one)
 * @param {boolean} [options.again] a window opened again in the profile of an earlier one (the same `tmp` and
 *   `port`, so the same origin): its extensions are installed already
 * @returns {Promise<number>} the suite's exit code
 */
export async function runWithCodeServer(options) {
  const started = Date.now();
  const stamp = () => `[${((Date.now() - started) / 1000).toFixed(1)}s]`;

  if ((await runSetup('code-server')) !== 0) {
    console.error('code-server runner: the harness could not be installed (see above)');
    return 1;
  }
  const vscodeVersion = codeServer.vscodeVersion();
  console.log(`runner: code-server ${codeServerVersion} (VS Code ${vscodeVersion}) with headless chromium`);

  const requested = process.env.TERRACE_CODE_SERVER_PORT;
  const port = options.port ?? (requested ? Number(requested) : await freePort());
  if (await portTaken(port)) {
    console.error(`code-server runner: port ${port} on 127.0.0.1 is already in use; refusing to run`);
    return 1;
  }

  const dir = (name) => {
    const full = path.join(options.tmp, name);
    mkdirSync(full, { recursive: true });
    return full;
  };
  const xdg = { XDG_CONFIG_HOME: dir('xdg-config'), XDG_DATA_HOME: dir('xdg-data'), XDG_CACHE_HOME: dir('xdg-cache') };
  const extensionsDir = dir('extensions');
  for (const vsix of options.again ? [] : (options.installExtensions ?? [])) {
    const install = spawnSync(
      codeServer.node,
      [codeServer.entry, '--extensions-dir', extensionsDir, '--install-extension', vsix],
      { encoding: 'utf8', env: { ...process.env, ...xdg }, timeout: 120_000 },
    );
    if (install.status !== 0 || !/was successfully installed/.test(install.stdout)) {
      console.error(`code-server runner: could not install ${vsix}:\n${install.stdout}${install.stderr}`);
      return 1;
    }
    console.log(stamp(), `installed ${path.basename(vsix)} into the extensions folder`);
  }
  const config = path.join(options.tmp, 'code-server.yaml');
  writeFileSync(config, `bind-addr: 127.0.0.1:${port}\nauth: none\ncert: false\n`);
  const userData = dir('user-data');
  mkdirSync(path.join(userData, 'User'), { recursive: true });
  // Restricted Mode: trust on, and no prompt at start (a fresh profile trusts no folder).
  const settings = options.untrusted
    ? {
        ...USER_SETTINGS,
        'security.workspace.trust.enabled': true,
        'security.workspace.trust.startupPrompt': 'never',
      }
    : USER_SETTINGS;
  writeFileSync(path.join(userData, 'User', 'settings.json'), JSON.stringify(settings, null, 2));
  const serverLog = path.join(options.tmp, 'code-server.log');
  const logFd = openSync(serverLog, 'w');

  const server = spawn(
    codeServer.node,
    [
      codeServer.entry,
      '--config',
      config,
      '--user-data-dir',
      userData,
      '--extensions-dir',
      extensionsDir,
      '--disable-telemetry',
      '--disable-update-check',
      ...(options.untrusted ? [] : ['--disable-workspace-trust']),
      '--disable-getting-started-override',
      '--vscode-option',
      'enable-smoke-test-driver',
    ],
    {
      // detached: its own session and process group (setsid), so the whole tree can be killed at the end.
      detached: true,
      stdio: ['ignore', logFd, logFd],
      env: { ...process.env, ...xdg },
    },
  );
  closeSync(logFd);
  const group = processGroup(server.pid);
  const killOnExit = () => group.killNow();
  const onSignal = (signal) => {
    group.killNow();
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  process.on('exit', killOnExit);
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  let context;
  let page;
  let shared;
  let code = 1;
  let suiteFinished = false;
  try {
    for (let i = 0; !(await answers(port)); i++) {
      if (server.exitCode !== null || i > 150) {
        throw new Error(`code-server did not start:\n${tail(serverLog)}`);
      }
      await sleep(200);
    }
    if (server.exitCode !== null) throw new Error('the code-server that answers is not ours');
    console.log(stamp(), `code-server up on 127.0.0.1:${port}`);

    const authority = `127.0.0.1:${port}`;
    const remote = (file) => `vscode-remote://${authority}${path.resolve(file)}`;
    // The workbench's address, made as the window is opened: the suite times its start-up from then.
    const workbenchUrl = () => {
      const environment = {
        ...options.env,
        TERRACE_VSCODE_EXTENSIONS_DIR: extensionsDir,
        TERRACE_WINDOW_OPENED_AT: String(Date.now()),
      };
      const payload = [
        ['extensionDevelopmentPath', remote(options.extensionDevelopmentPath)],
        ['extensionTestsPath', remote(options.extensionTestsPath)],
        ['extensionEnvironment', JSON.stringify(environment)],
        ['skipWelcome', 'true'],
      ];
      const folder = encodeURIComponent(path.resolve(options.workspace)).replace(/%2F/g, '/');
      return `http://${authority}/?folder=${folder}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
    };

    shared = options.sharedBrowser?.open();
    const browserLaunched = shared?.launchedAt ?? Date.now();
    context = shared ? await shared.context : await launchChromium(dir('chromium'), CHROMIUM_OPTIONS);
    page = shared ? await context.newPage() : (context.pages()[0] ?? (await context.newPage()));
    const verbose = Boolean(process.env.TERRACE_VSCODE_VERBOSE);
    let exited;
    const exit = new Promise((resolve) => {
      exited = resolve;
    });
    await page.exposeFunction('codeAutomationLog', async (type, args) => {
      const parts = Array.isArray(args) ? args : [args];
      const picture = /^terrace-screenshot (.+\.png)$/.exec(String(parts[0]))?.[1];
      if (picture) {
        await takePicture(page, picture);
        return;
      }
      if (parts[0] === 'terrace-trust-workspace') {
        await trustWorkspace(page).catch((error) => console.error(stamp(), 'could not trust the workspace:', error));
        return;
      }
      if (!verbose && NOISE.test(String(parts[0]))) return;
      (type === 'error' ? console.error : console.log)(...parts);
    });
    await page.exposeFunction('codeAutomationExit', (exitCode) => exited(exitCode));
    page.on('pageerror', (error) => console.error(stamp(), 'workbench error:', error.message));
    if (options.runningBrowser) await sleep(browserLaunched + BROWSER_SETTLED_MS - Date.now());
    await page.goto(workbenchUrl());

    let timer;
    const timeout = new Promise((resolve) => {
      timer = setTimeout(() => resolve('timeout'), options.timeoutMs);
    });
    const result = await Promise.race([exit, timeout]);
    clearTimeout(timer);
    if (result === 'timeout') {
      console.error(stamp(), `timed out after ${options.timeoutMs} ms waiting for the suite to finish`);
    } else {
      code = Number(result);
      suiteFinished = true;
      console.log(stamp(), `extension host finished the suite with exit code ${code}`);
    }
  } catch (error) {
    console.error(stamp(), 'code-server runner:', error instanceof Error ? error.message : error);
    code = 1;
  } finally {
    if (code !== 0 && page && options.screenshotOnFailure) {
      mkdirSync(path.dirname(options.screenshotOnFailure), { recursive: true });
      await page.screenshot({ path: options.screenshotOnFailure }).catch(() => undefined);
      if (existsSync(options.screenshotOnFailure))
        console.error(`workbench screenshot: ${options.screenshotOnFailure}`);
    }
    if (shared) await page?.close().catch(() => undefined);
    else await context?.close().catch(() => undefined);
    await group.stop();
    process.off('exit', killOnExit);
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    if (!suiteFinished) console.error(`code-server log (last lines):\n${tail(serverLog)}`);
  }
  return code;
}

/**
 * Trusts the open folder as a user does: Workspaces: Manage Workspace Trust from the command palette, then
 * the trust editor's Trust button.
 */
async function trustWorkspace(page) {
  const title = 'Workspaces: Manage Workspace Trust';
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible', timeout: 15_000 });
  await input.fill(`>${title}`);
  await page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first().waitFor({ timeout: 15_000 });
  await page.keyboard.press('Enter');
  await page
    .locator('.workspace-trust-editor .workspace-trust-buttons-row .monaco-button', { hasText: /^Trust$/ })
    .first()
    .click({ timeout: 15_000 });
}

/** The workbench's picture, for a test that asks on the console; written whole, then renamed into place. */
async function takePicture(page, file) {
  mkdirSync(path.dirname(file), { recursive: true });
  const partial = `${file}.partial.png`;
  await page.screenshot({ path: partial });
  renameSync(partial, file);
}
