import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * A monorepo with a real repository's graph: the modules and true edges a corpus file lists
 * (`test/corpus/<owner>+<name>.json`), each module a root with Terraform's default local state that
 * reads the states of the modules its edges lead to. Nothing of the repository's code, only its
 * graph: `equinor+radix-platform`, with its 7 cycles, is the graph the panel once drew as 4 levels.
 */
export interface CorpusEdges {
  modules: string[];
  edges: { from: string; to: string }[];
}

const CORPUS = path.resolve(__dirname, '..', 'corpus');

/**
 * `readOutputs`: each root uses the `id` output of every state it reads (a named read, as most real reads are)
 * in a `terraform_data`, and keeps its tags in one that no output shows: what a run that decides each dependent
 * from the outputs it reads is measured on.
 */
export function writeCorpusEdges(
  dir: string,
  repository: string,
  options: { readOutputs?: boolean } = {},
): CorpusEdges {
  const truth = JSON.parse(readFileSync(path.join(CORPUS, `${repository}.json`), 'utf8')) as CorpusEdges;
  const reads = new Map<string, string[]>(truth.modules.map((id) => [id, []]));
  for (const edge of truth.edges) reads.get(edge.from)!.push(edge.to);
  for (const [id, writers] of reads) {
    const folder = path.join(dir, id);
    mkdirSync(folder, { recursive: true });
    writeFileSync(path.join(folder, 'main.tf'), mainFile(id, writers, options.readOutputs ?? false));
  }
  return { modules: truth.modules, edges: truth.edges.map(({ from, to }) => ({ from, to })) };
}

function mainFile(id: string, writers: readonly string[], readOutputs: boolean): string {
  const blocks = writers.map((writer, index) => {
    const state = path.posix.join(path.posix.relative(id, writer), 'terraform.tfstate');
    return `data "terraform_remote_state" "read_${index}" {
  backend = "local"
  config  = { path = "${state}" }
}
`;
  });
  return `terraform {
  backend "local" {}
}

${blocks.join('\n')}${readOutputs ? usesFile(writers.length) : ''}
output "id" {
  value = "${id}"
}
`;
}

/** A resource that reads each state's `id`, and tags that no output shows (`team = "platform"`, to change). */
function usesFile(reads: number): string {
  const ids = Array.from({ length: reads }, (_, index) => `data.terraform_remote_state.read_${index}.outputs.id`);
  return `
resource "terraform_data" "uses" {
  input = [${ids.join(', ')}]
}

resource "terraform_data" "tags" {
  input = { team = "platform" }
}
`;
}
