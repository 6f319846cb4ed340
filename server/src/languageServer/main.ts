import module from 'node:module';
import path from 'node:path';

/**
 * The language server's entry (`dist/server.js`): Node's compile cache on where the Node that runs it has one
 * (22.1 and later; kept in the system's temporary folder, by each file's contents), then the server's bundle
 * (`dist/languageServer.js`). Compiled from the cache, the bundle loads in about 50 ms instead of 80: a part of
 * every window's wait for its first problems.
 */
const withCache = module as typeof module & { enableCompileCache?: () => unknown };
withCache.enableCompileCache?.();
require(path.join(__dirname, 'languageServer.js'));
