import type { BrowserContext, BrowserType } from 'playwright-core';

export declare const chromiumPath: string;
export declare const quietChromiumArgs: readonly string[];
export declare function launchChromium(
  userDataDir: string,
  options?: Parameters<BrowserType['launchPersistentContext']>[1],
): Promise<BrowserContext>;
