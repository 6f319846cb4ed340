/** How a workspace is analysed: discovery settings plus evaluation defaults. */
export interface AnalysisOptions {
  discovery: DiscoveryOptions;
  /** The value of `terraform.workspace` while evaluating; Terraform's own default is `default`. */
  terraformWorkspace: string;
}

export interface DiscoveryOptions {
  /** `auto`: roots declare a backend/cloud block or hold a lock file; `pattern`: roots match `pattern`. */
  mode: 'auto' | 'pattern';
  /** Path pattern of a root module, e.g. `{service}/{environment}/{region}/{module}`. */
  pattern: string;
  /** Globs (relative to the root, `/`-separated) of folders to leave out. */
  exclude: string[];
  /** When not empty, only module folders matching one of these globs are modules. */
  include: string[];
  /** Globs of partial backend configuration files (`*.tfbackend`, `backend.hcl`) read to complete a backend. */
  backendConfigFiles: string[];
}

export const DEFAULT_PATTERN = '{service}/{environment}/{region}/{module}';

export function defaultOptions(): AnalysisOptions {
  return {
    discovery: { mode: 'auto', pattern: DEFAULT_PATTERN, exclude: [], include: [], backendConfigFiles: [] },
    terraformWorkspace: 'default',
  };
}
