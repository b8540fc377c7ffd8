import { isSensitiveClaim } from './sensitivity';

describe('a sensitive claim', () => {
  it('is one with an injury, or on which triage ever raised the fraud indicator; other gates do not make it so', () => {
    expect(isSensitiveClaim({ injuries: true, gates: [] })).toBe(true);
    expect(isSensitiveClaim({ injuries: false, gates: ['high_value', 'fraud_indicator'] })).toBe(true);
    expect(isSensitiveClaim({ injuries: null, gates: ['high_value', 'injury'] })).toBe(false);
    expect(isSensitiveClaim({ injuries: false, gates: [] })).toBe(false);
  });
});
