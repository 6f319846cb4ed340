import path from 'node:path';
import { loadAndTell } from '../codeCache';

/**
 * The language server's entry (`dist/server.js`): the server's bundle (`dist/languageServer.js`) loaded with its
 * code cache, in the folder the client names (`--code-cache=<folder>`, the extension's global storage; see
 * `codeCache.ts`). Without one (a test's server, a client of another editor), with Node's compile cache where
 * the Node that runs it has one.
 */
const CODE_CACHE_ARGUMENT = '--code-cache=';
const cacheDir = process.argv.find((arg) => arg.startsWith(CODE_CACHE_ARGUMENT))?.slice(CODE_CACHE_ARGUMENT.length);
loadAndTell(path.join(__dirname, 'languageServer.js'), cacheDir || undefined);
