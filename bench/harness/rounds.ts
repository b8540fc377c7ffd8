import { median } from './stats';

/**
 * Runs the subject and its baseline in alternating rounds (A B A B …, the order flipped every round),
 * so drift on a shared machine hits both alike; returns every round's result per side.
 */
export async function alternate<T>(rounds: number, sides: Record<string, () => Promise<T>>): Promise<Record<string, T[]>> {
  const names = Object.keys(sides);
  const results: Record<string, T[]> = Object.fromEntries(names.map((name) => [name, []]));
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 ? [...names].reverse() : names;
    for (const name of order) results[name].push(await sides[name]());
  }
  return results;
}

export function medianOf<T>(items: T[], pick: (item: T) => number): number {
  return median(items.map(pick));
}

/**
 * The median over blocks of two rounds of subject ÷ baseline (their sums). `alternate` flips the order every
 * round (A B, B A, …), so each block of two runs A B B A: whatever favours the side that runs first, or second,
 * after a switch weighs on both sides alike in a block, and cancels in its ratio. An odd last round (or a
 * single one) counts as a block of its own.
 */
export function medianBlockRatio<T>(subject: T[], baseline: T[], pick: (item: T) => number): number {
  if (subject.length !== baseline.length || subject.length === 0) throw new Error('block ratios need as many rounds of each, at least one');
  const ratios: number[] = [];
  for (let start = 0; start < subject.length; start += 2) {
    const block = (items: T[]) => items.slice(start, start + 2).reduce((sum, item) => sum + pick(item), 0);
    ratios.push(block(subject) / block(baseline));
  }
  return median(ratios);
}
