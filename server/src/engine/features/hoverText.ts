import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AnalysisResult, ModuleSummary } from '../analysis';
import { type FileRead, folderRelative } from '../evaluation';
import { formatAge, type ModuleRunState } from '../run';
import { describeAssumed, type MatchedEdge, unreadableNote } from '../state';
import { referenceLabel } from '../workspace';
import { relativeFile } from './graphJson';
import { markdownCode, markdownLink, markdownMessage, markdownText } from './markdownText';
import { cycleOf, moduleById, moduleLocation, neighbours, type ReferenceOutcome } from './navigation';

/**
 * Hover contents as Markdown: compact, with links that open modules (file links with a line
 * fragment, which need no trusted command). What files say is text, not markup (`markdownText.ts`).
 */
export function referenceHover(result: AnalysisResult, outcomes: readonly ReferenceOutcome[]): string {
  const first = outcomes[0];
  if (!first) return '';
  const reference = first.kind === 'edge' ? first.edge.reference : first.item.reference;
  const backend =
    typeof reference.backend === 'string' && !reference.block ? ` · ${markdownText(reference.backend)}` : '';
  const lines = [`**${markdownText(referenceLabel(reference))}**${backend}`, ''];
  // An ambiguous read's edges are said once, by its ambiguous line.
  for (const outcome of outcomes) {
    if (outcome.kind !== 'edge' || outcome.edge.match !== 'ambiguous') lines.push(`- ${outcomeLine(result, outcome)}`);
  }
  return lines.join('\n');
}

function outcomeLine(result: AnalysisResult, outcome: ReferenceOutcome): string {
  const reference = outcome.kind === 'edge' ? outcome.edge.reference : outcome.item.reference;
  const instance = reference.instance === null ? '' : `${markdownCode(reference.instance)}: `;
  switch (outcome.kind) {
    case 'edge': {
      const { edge } = outcome;
      const writer = moduleById(result, edge.to);
      const convention = edge.matchedBy === 'path-convention' ? ' (by path convention)' : '';
      // A dependency names a folder: what the unit there writes is worth seeing beside it.
      const writes =
        edge.matchedBy === 'dependency' && writer?.backend?.address
          ? ` · writes ${markdownCode(writer.backend.address)}`
          : '';
      const line = `${instance}${markdownCode(edge.address)} → ${writer ? moduleLink(writer) : markdownText(edge.to)} · ${writer ? levelLabel(result, writer) : 'level ?'}${convention}${writes}`;
      return edge.match === 'inferred' ? `${line}\n  - ${inferredWhy(edge)}` : line;
    }
    case 'ambiguous':
      return `${instance}${markdownCode(String(outcome.item.address))} → written by ${outcome.item.writers.length} modules: ${linkIds(result, outcome.item.writers)} · **ambiguous**: it runs after all of them`;
    case 'unresolved':
      return outcome.item.address !== undefined
        ? `${instance}${markdownCode(outcome.item.address)} → no module in this workspace writes it${markdownMessage(unreadableNote(outcome.item.unreadable))}`
        : `${instance}${markdownMessage(outcome.item.reason)}`;
  }
}

/**
 * Why an inferred edge is believed, and what it takes for granted: `**inferred**: var.stack has no default;
 * only search/blue's state fits, assuming var.stack = "blue"`.
 */
export function inferredWhy(edge: MatchedEdge): string {
  const unknown = edge.unknowns.length > 0 ? edge.unknowns.join('; ') : 'no backend names this address literally';
  const assuming = edge.assumed.length > 0 ? `, assuming ${describeAssumed(edge.assumed)}` : '';
  return `**inferred**: ${markdownMessage(unknown)}; only ${markdownText(edge.to)}'s state fits${markdownMessage(assuming)}`;
}

/** The hover on a module's backend block: id, level, what it writes, dependencies and dependents, its run state. */
export function moduleHover(result: AnalysisResult, module: ModuleSummary, runState?: ModuleRunState): string {
  const { dependencies, dependents } = neighbours(result, module.id);
  const cycle = cycleOf(result, module.id);
  const label = moduleKindLabel(module, result.engine);
  const lines = [`**${label} ${markdownCode(module.id)}** · ${levelLabel(result, module)}`, ''];
  if (module.backend?.address) lines.push(`Writes ${markdownCode(module.backend.address)}`, '');
  if (module.component) lines.push(...componentLines(module.component), '');
  lines.push(`Depends on (${dependencies.length}): ${linkIds(result, dependencies) || 'nothing'}`, '');
  lines.push(`Used by (${dependents.length}): ${linkIds(result, dependents) || 'nothing'}`);
  const outside = readsOutside(module);
  if (outside.length > 0) lines.push('', readsLine(result, outside));
  if (cycle) lines.push('', `In a cycle: ${markdownText(cycle.join(' -> '))}`);
  if (module.syntaxErrors.length > 0) lines.push('', brokenLine(result, module));
  if (runState) lines.push('', runStateLine(runState));
  return lines.join('\n');
}

/** What a module's plan reads outside its own folder: included and read files, child modules, what file functions name. */
function readsOutside(module: ModuleSummary): FileRead[] {
  const inside = (file: string) =>
    file === module.dir || file.startsWith(module.dir.endsWith(path.sep) ? module.dir : module.dir + path.sep);
  return module.reads.filter(({ target }) => !inside(target.kind === 'file' ? target.path : target.dir));
}

/** Reads shown in a hover, at most; the rest are counted. */
const READS_SHOWN = 4;

/** `Reads outside its folder (3): [live/terragrunt.hcl](…) (include "root"), [modules/vpc/](…) (terraform { source }), …`. */
function readsLine(result: AnalysisResult, reads: readonly FileRead[]): string {
  const shown = reads.slice(0, READS_SHOWN).map((read) => `${readLink(result, read)} (${markdownText(read.how)})`);
  const more = reads.length > READS_SHOWN ? `, and ${reads.length - READS_SHOWN} more` : '';
  return `Reads outside its folder (${reads.length}): ${shown.join(', ')}${more}`;
}

/** A read's file as a link that opens it; a folder opens where its module is called, a path known in part is text. */
function readLink(result: AnalysisResult, read: FileRead): string {
  const { target } = read;
  const at = read.at ? `${pathToFileURL(read.at.file).href}#L${read.at.line}` : undefined;
  if (target.kind === 'file')
    return markdownLink(folderRelative(result.root, target.path), pathToFileURL(target.path).href);
  if (target.kind === 'folder') {
    const folder = `${folderRelative(result.root, target.dir)}/`;
    return at ? markdownLink(folder, at) : markdownCode(folder);
  }
  return markdownCode(folderRelative(result.root, target.shown));
}

/** What the node is; a root module of an OpenTofu workspace says so (OpenTofu reads its files, and runs it). */
function moduleKindLabel(module: ModuleSummary, engine: AnalysisResult['engine']): string {
  if (module.component) return module.component.address.startsWith('stack.') ? 'Embedded stack' : 'Stacks component';
  if (module.kind === 'unit') return 'Terragrunt unit';
  return engine === 'tofu' ? 'OpenTofu module' : 'Module';
}

/** What a Stack's component is: its module, its instances, and who plans it. */
function componentLines(component: NonNullable<ModuleSummary['component']>): string[] {
  const source = component.source === undefined ? 'a source not known before plan' : markdownCode(component.source);
  const instances =
    component.instances === undefined
      ? ''
      : component.instances === 'unknown'
        ? ' · instances known at plan time'
        : ` · instances ${component.instances.map(markdownCode).join(', ')}`;
  return [
    `Module ${source}${instances}`,
    '',
    'Its state is in HCP Terraform, which plans it (`terraform stacks plan`); Run Plans leaves it out.',
  ];
}

/** `**Does not parse**: main.tf line 3 (…): terraform cannot run it; what is shown comes from the blocks that still parse`. */
function brokenLine(result: AnalysisResult, module: ModuleSummary): string {
  const first = module.syntaxErrors[0]!;
  const where = `${markdownText(relativeFile(result.root, first.file))} line ${(first.range?.start.line ?? 0) + 1}`;
  const more = module.syntaxErrors.length > 1 ? ` and ${module.syntaxErrors.length - 1} more` : '';
  return `**Does not parse**: ${where}${more} (see Problems): terraform cannot run it, and what is shown comes from the blocks that still parse`;
}

/** `Run state: **ApplyNeeded** — 1 to add, 0 to change, 0 to destroy · planned 5 min ago`. */
export function runStateLine(runState: ModuleRunState, now = Date.now()): string {
  const parts = [`Run state: **${runState.state}** — ${markdownMessage(runState.reason)}`];
  if (runState.plannedAt) parts.push(`planned ${ago(runState.plannedAt, now)}`);
  if (runState.appliedAt) parts.push(`applied ${ago(runState.appliedAt, now)}`);
  if (runState.running)
    parts.push(`running now (${markdownText(runState.running.command)}, pid ${runState.running.pid})`);
  const line = parts.join(' · ');
  const decided = runState.decided;
  // Why the last run did not run it: what it reads, and what became of it upstream.
  if (decided?.status === 'unaffected')
    return `${line}\n\nUnaffected ${ago(decided.at, now)}, not run: ${markdownMessage(decided.reason)}`;
  return line;
}

function ago(time: string, now: number): string {
  const ms = now - Date.parse(time);
  return ms < 60_000 ? 'just now' : `${formatAge(ms)} ago`;
}

function linkIds(result: AnalysisResult, ids: readonly string[]): string {
  return ids
    .map((id) => {
      const module = moduleById(result, id);
      return module ? moduleLink(module) : markdownCode(id);
    })
    .join(', ');
}

export function moduleLink(module: ModuleSummary): string {
  const { file, range } = moduleLocation(module);
  return markdownLink(module.id, `${pathToFileURL(file).href}#L${range.start.line + 1}`);
}

/**
 * `level 2`; a module in a cycle, or depending on one, has none (the level the graph files it under
 * is only where it would run once the cycle is broken).
 */
export function levelLabel(result: AnalysisResult, module: ModuleSummary): string {
  if (cycleOf(result, module.id)) return 'in a cycle, no level';
  return result.waitingForCycles.includes(module.id) ? 'waits for a cycle, no level' : `level ${module.level}`;
}

/** The code lens title above a backend block: `level 2 · 3 dependencies · 5 dependents` (` · ApplyNeeded`). */
export function moduleLensTitle(result: AnalysisResult, module: ModuleSummary, runState?: ModuleRunState): string {
  const { dependencies, dependents } = neighbours(result, module.id);
  const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
  const run = runState
    ? ` · ${runState.running ? 'running' : runState.state}${runState.drifted ? ' (drifted)' : ''}`
    : '';
  return `${levelLabel(result, module)} · ${plural(dependencies.length, 'dependency', 'dependencies')} · ${plural(dependents.length, 'dependent', 'dependents')}${run}`;
}
