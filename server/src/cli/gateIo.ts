/** What `terrace gate` runs in: the job's environment and checkout, its stdin, stdout and stderr. */
export interface GateIo {
  env: NodeJS.ProcessEnv;
  /** The job's checkout: where records are read and written (GitLab; GitHub chained by level). */
  cwd: string;
  stdin(): string;
  out(text: string): void;
  err(text: string): void;
}
