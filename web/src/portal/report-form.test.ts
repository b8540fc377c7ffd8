import { describe, expect, it } from 'vitest';
import { reportBody, reportErrors, type ReportFields } from './report-form';

const valid: ReportFields = {
  name: 'Ana Ruiz',
  policyNumber: 'POL-123456',
  lossType: 'auto_collision',
  description: 'Rear-ended at a light',
  date: '2026-11-20',
  address: '1 Main St',
  city: 'Springfield',
  email: 'ana@example.com',
  phone: '',
  language: 'en',
};

describe('the report-a-loss form, checked with the API schema', () => {
  it('accepts a complete report and sends only what was given, trimmed', () => {
    expect(reportErrors(valid)).toEqual({});
    expect(JSON.parse(JSON.stringify(reportBody({ ...valid, name: '  Ana Ruiz ', address: '', city: '' })))).toEqual({
      policy_number: 'POL-123456',
      claimant: { name: 'Ana Ruiz', email: 'ana@example.com' },
      loss: { date: '2026-11-20', type: 'auto_collision', description: 'Rear-ended at a light' },
      language: 'en',
    });
  });

  it('names each missing required field', () => {
    expect(reportErrors({ ...valid, name: ' ', policyNumber: '', lossType: '', description: '', date: '' })).toEqual({
      name: 'fieldRequired',
      policyNumber: 'fieldRequired',
      lossType: 'fieldRequired',
      description: 'fieldRequired',
      date: 'fieldRequired',
    });
  });

  it('refuses what the API refuses: a malformed email, phone or policy number, an impossible date, a too long name', () => {
    expect(
      reportErrors({ ...valid, email: 'ana@', phone: '0600 12', policyNumber: '-POL', date: '2026-02-30', name: 'x'.repeat(201) }),
    ).toEqual({ email: 'fieldInvalid', phone: 'fieldInvalid', policyNumber: 'fieldInvalid', date: 'fieldInvalid', name: 'fieldTooLong' });
  });

  it('takes a phone written with spaces, and asks for an email or a phone when neither is given', () => {
    expect(reportErrors({ ...valid, email: '', phone: '+34 600 123 456' })).toEqual({});
    expect(reportBody({ ...valid, email: '', phone: '+34 600 123 456' }).claimant.phone).toBe('+34600123456');
    expect(reportErrors({ ...valid, email: '', phone: '' })).toEqual({ email: 'reportNeedContact' });
  });
});
