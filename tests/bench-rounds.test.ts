import { alternate, medianBlockRatio } from '../bench/harness/rounds';

describe('bench rounds: alternate and medianBlockRatio', () => {
  it('cancels an order effect that a ratio per round would keep: the side run first after a switch is slower', async () => {
    // both sides equally fast (100/s), but a side's first round after the other side ran gets 75
    let last: string | undefined;
    const side = (name: string) => async () => {
      const rps = last === name ? 100 : 75;
      last = name;
      return rps;
    };
    const rounds = await alternate<number>(8, { subject: side('subject'), baseline: side('baseline') });
    const perRound = rounds.subject.map((rps, index) => rps / rounds.baseline[index]);
    // after the first round (both sides cold), every round's own ratio is off by the order, one way or the other
    expect(new Set(perRound.slice(1).map((ratio) => ratio.toFixed(2)))).toEqual(new Set(['0.75', '1.33']));
    expect(medianBlockRatio(rounds.subject, rounds.baseline, (rps) => rps)).toBeCloseTo(1, 1);
  });

  it('reads a real difference: a subject 10% slower in every round gives 0.9', async () => {
    const rounds = await alternate<number>(6, { subject: async () => 90, baseline: async () => 100 });
    expect(medianBlockRatio(rounds.subject, rounds.baseline, (rps) => rps)).toBeCloseTo(0.9, 5);
  });

  it('takes a single round (quick mode) as one block, and refuses rounds that do not pair', () => {
    expect(medianBlockRatio([45], [50], (rps) => rps)).toBeCloseTo(0.9, 5);
    expect(() => medianBlockRatio([1, 2], [1], (rps) => rps)).toThrow(/as many rounds/);
  });
});
