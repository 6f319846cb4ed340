// Writes a real-shape monorepo into a folder, to open it in an editor or run the CLI on it:
//   node --import tsx test/realShapes/write.ts terragrunt-live <dir> [--units N] [--seed N]
//   node --import tsx test/realShapes/write.ts plain-subscriptions <dir> [--seed N]
// The folder must be empty or new: a shape written over another tree would not be that shape.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { writePlainSubscriptions } from './plainSubscriptions';
import { writeTerragruntLive } from './terragruntLive';

const USAGE = 'usage: write.ts terragrunt-live|plain-subscriptions <dir> [--units N] [--seed N]';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { units: { type: 'string' }, seed: { type: 'string' } },
});
const [shape, target] = positionals;
const seed = values.seed === undefined ? undefined : Number(values.seed);
const units = values.units === undefined ? undefined : Number(values.units);

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

if (!target || positionals.length !== 2) fail(USAGE);
if ([seed, units].some((n) => n !== undefined && !Number.isInteger(n))) fail('--units and --seed take integers');
if (units !== undefined && units < 1) fail('--units takes at least 1');
const dir = path.resolve(target);
if (existsSync(dir) && readdirSync(dir).length > 0) fail(`${dir} is not empty`);

if (shape === 'terragrunt-live') {
  const live = writeTerragruntLive(dir, { units, seed });
  console.log(`${dir}: ${live.units.length} Terragrunt units, ${live.dependencies} dependency blocks`);
} else if (shape === 'plain-subscriptions') {
  if (units !== undefined) fail('--units is for terragrunt-live only');
  const plain = writePlainSubscriptions(dir, { seed });
  console.log(`${dir}: ${plain.roots.length} root modules, ${plain.edges} remote-state reads`);
} else {
  fail(USAGE);
}
