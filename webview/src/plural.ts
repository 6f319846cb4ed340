const numbers = new Intl.NumberFormat('en-US');

/** A count with its noun, as the panel writes counts: "1 module", "1,200 modules". */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${numbers.format(count)} ${count === 1 ? one : many}`;
}
