/** Timing samples of one figure and their summary: the machine is noisy, so medians with min and max. */
export interface Summary {
  median: number;
  min: number;
  max: number;
  runs: number;
}

export function summarize(values: readonly number[]): Summary {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
  return { median, min: sorted[0]!, max: sorted.at(-1)!, runs: sorted.length };
}

/** Runs `measure` `runs` times, sequentially, and summarizes what it returns (milliseconds). */
export async function repeat(runs: number, measure: (run: number) => Promise<number> | number): Promise<Summary> {
  const values: number[] = [];
  for (let run = 0; run < runs; run++) values.push(await measure(run));
  return summarize(values);
}
