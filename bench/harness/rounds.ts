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
