import leven from 'leven';

/** How many names a "did you mean" offers. */
const MAX_SUGGESTIONS = 3;

/**
 * The declared names closest to a misspelt one, nearest first: those within a third of its length in
 * edits (at least two), as a reader who typed `private_subnet_idz` meant `private_subnet_ids`.
 */
export function closestNames(name: string, declared: readonly string[]): string[] {
  const limit = Math.max(2, Math.floor(name.length / 3));
  return declared
    .map((candidate) => ({ candidate, distance: leven(name, candidate, { maxDistance: limit + 1 }) }))
    .filter(({ distance }) => distance <= limit)
    .sort((a, b) => a.distance - b.distance || a.candidate.localeCompare(b.candidate))
    .slice(0, MAX_SUGGESTIONS)
    .map(({ candidate }) => candidate);
}
