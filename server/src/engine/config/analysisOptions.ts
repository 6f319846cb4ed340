/** How a workspace is analysed: discovery settings plus evaluation defaults. */
export interface AnalysisOptions {
  discovery: DiscoveryOptions;
  /**
   * The value of `terraform.workspace` while evaluating. Undefined when not chosen: then it is
   * Terraform's own default, `default`, and a read that finds no writer that way is tried again with
   * the workspace as unknown (any workspace the module runs in).
   */
  terraformWorkspace: string | undefined;
  /** Environments named in `.terrace.yaml`; others are found from file names (see workspace/environments.ts). */
  environments: Record<string, EnvironmentConfig>;
  /** The environment analysed: its variables, tfvars, backend files and workspace. Undefined: all of them. */
  environment: string | undefined;
  /**
   * What CI passes with `-backend-config` to a root that keeps no backend configuration file, for each
   * argument its backend block leaves out: `{ key: "{module}/terraform.tfstate" }`. `{module}` stands for
   * the root's path in the workspace, `{name}` for its folder's name.
   */
  backendConfig: Record<string, string>;
  /** The engine that reads the workspace (`engine` in `.terrace.yaml`); undefined: decided from its files. */
  engine: Engine | undefined;
}

/** The tool that reads (and runs) a workspace: Terraform, or OpenTofu with its own files and early evaluation. */
export type Engine = 'terraform' | 'tofu';

export const ENGINES: readonly Engine[] = ['terraform', 'tofu'];

/** One environment: what `terraform` is given when it runs there. */
export interface EnvironmentConfig {
  /** Variable values (`-var`), over every tfvars file. */
  variables: Record<string, unknown>;
  /** Names of tfvars files beside a root (`-var-file`); default `<name>.tfvars` and `<name>.tfvars.json`. */
  varFiles: string[] | undefined;
  /** Names of its backend configuration files (`-backend-config`); default: those named `<name>.…`. */
  backendConfigFiles: string[] | undefined;
  /** `terraform.workspace` there; default: as chosen for the workspace, or any. */
  workspace: string | undefined;
}

export interface DiscoveryOptions {
  /** `auto`: roots declare a backend/cloud block or hold a lock file; `pattern`: roots match `pattern`. */
  mode: 'auto' | 'pattern';
  /**
   * The TerraCi file that chose pattern discovery (any `.terraci.yaml` does, as TerraCi discovers
   * by pattern): named when the pattern finds no module, with the way back to `auto`.
   */
  patternFrom?: string;
  /** Path pattern of a root module, e.g. `{service}/{environment}/{region}/{module}`. */
  pattern: string;
  /** Globs (relative to the root, `/`-separated) of folders to leave out. */
  exclude: string[];
  /** When not empty, only module folders matching one of these globs are modules. */
  include: string[];
  /** Globs of partial backend configuration files (`*.tfbackend`, `backend.hcl`) read to complete a backend. */
  backendConfigFiles: string[];
  /**
   * Ask Git which files it tracks that a `.gitignore` matches (read all the same, as Git does). Off in a
   * folder the user has not trusted, where no process is started: the ignore rules alone decide there.
   */
  askGit: boolean;
}

/** The tfvars files (names or globs) of an environment: configured, else `<name>.tfvars` and `<name>.tfvars.json`. */
export function environmentVarFiles(name: string, configured: Readonly<Record<string, EnvironmentConfig>>): string[] {
  return configured[name]?.varFiles ?? [`${name}.tfvars`, `${name}.tfvars.json`];
}

export const DEFAULT_PATTERN = '{service}/{environment}/{region}/{module}';

/**
 * The names partial backend configuration files go by beside a root, each passed as `-backend-config` at
 * `terraform init` and completing the backend block (one state per file): `prod.tfbackend`,
 * `backend.hcl`, `production.blue.backend`, `prod.backend.hcl`, `backend.conf`.
 */
export const DEFAULT_BACKEND_CONFIG_FILES: readonly string[] = [
  '*.tfbackend',
  'backend.hcl',
  '*.backend',
  '*.backend.hcl',
  'backend.conf',
  '*.backend.conf',
];

export function defaultOptions(): AnalysisOptions {
  return {
    discovery: {
      mode: 'auto',
      pattern: DEFAULT_PATTERN,
      exclude: [],
      include: [],
      backendConfigFiles: [...DEFAULT_BACKEND_CONFIG_FILES],
      askGit: true,
    },
    terraformWorkspace: undefined,
    environments: {},
    environment: undefined,
    backendConfig: {},
    engine: undefined,
  };
}
