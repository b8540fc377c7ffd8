import { describe, expect, it } from 'vitest';
import { sodReason } from './segregation';

describe('the examiner desk’s segregation-of-duties hint', () => {
  it.each([
    ['in capitals', 'ALICE'],
    ['with an accent', 'alic\u00e9'],
    ['in fullwidth letters', 'ａｌｉｃｅ'],
  ])('tells alice signed in %s that she may not decide her own run, as the service does', (_how, me) => {
    expect(sodReason({ created_by: 'alice', submitted_by: null }, me)).toBe('opened');
    expect(sodReason({ created_by: 'bob', submitted_by: 'alice' }, me)).toBe('submitted');
    expect(sodReason({ created_by: 'bob', submitted_by: 'carol', evidence: [{ submitted_by: 'alice' }] }, me)).toBe('added_evidence');
  });

  it('lets someone else decide', () => {
    expect(sodReason({ created_by: 'alice', submitted_by: 'alice', evidence: [{ submitted_by: 'alice' }] }, 'bob')).toBeNull();
  });
});
