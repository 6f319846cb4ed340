export declare function programSpies(dir: string, names?: readonly string[]): { PATH: string; TERRACE_SPY_LOG: string };
export declare function startedPrograms(log: string): string[];
