/** Reads one process's Prometheus text and sums the samples of `name` (over all label sets). */
export async function scrape(url: string): Promise<string> {
  const response = await fetch(`${url}/metrics`, { signal: AbortSignal.timeout(5000) });
  if (response.status !== 200) throw new Error(`${url}/metrics answered ${response.status}`);
  return response.text();
}

export function metricValue(text: string, name: string): number | undefined {
  let total: number | undefined;
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][\w:]*)(\{[^}]*\})?\s+(\S+)/.exec(line);
    if (match && match[1] === name) total = (total ?? 0) + Number(match[3]);
  }
  return total;
}

export function median(values: number[]): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}
