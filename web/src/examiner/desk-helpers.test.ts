import { describe, expect, it } from 'vitest';
import { attachmentName } from '../api/download';
import { problemText } from '../api/problem';
import { evidenceText } from './RunPage';
import { verifyCommand } from './VerifierKeys';

describe('the examiner desk’s helpers', () => {
  it('names a download as the service’s Content-Disposition does, preferring the UTF-8 name', () => {
    expect(attachmentName(`attachment; filename="leavers _.csv"; filename*=UTF-8''leavers%20%C3%A9.csv`)).toBe('leavers é.csv');
    expect(attachmentName('attachment; filename="binder-1.zip"')).toBe('binder-1.zip');
    expect(attachmentName(`attachment; filename="a.csv"; filename*=UTF-8''%E0%A4%A`)).toBe('a.csv'); // a broken escape
    expect(attachmentName(null)).toBeNull();
  });

  it('shows a note’s text, a record’s data and a link’s address from the stored JSON', () => {
    expect(evidenceText({ kind: 'note' }, '{"description":"All reviewed","kind":"note","title":"Sign-off"}')).toBe('All reviewed');
    expect(evidenceText({ kind: 'note' }, '{"kind":"note","title":"Sign-off"}')).toBe('Sign-off');
    expect(evidenceText({ kind: 'record' }, '{"data":{"reviewed":42},"kind":"record","title":"Counts"}')).toBe('{\n  "reviewed": 42\n}');
    expect(evidenceText({ kind: 'link' }, '{"kind":"link","title":"Ticket","url":"https://tickets.example/1"}')).toBe(
      'https://tickets.example/1',
    );
  });

  it('writes the verify.mjs command with the service key and one --witness-key per witness', () => {
    expect(verifyCommand('binder-1.zip', { service: 'log+0a0b0c0d+S', witnesses: [] })).toBe(
      'node verify.mjs binder-1.zip --service-key log+0a0b0c0d+S',
    );
    expect(verifyCommand('binder-1.zip', { service: 'log+0a0b0c0d+S', witnesses: ['w1+01020304+A', 'w2+05060708+B'] })).toBe(
      'node verify.mjs binder-1.zip --service-key log+0a0b0c0d+S --witness-key w1+01020304+A --witness-key w2+05060708+B',
    );
  });
});

describe('a refusal in words', () => {
  it('says a missing scope as a sentence about the sign-in, and any other refusal as the service wrote it', () => {
    expect(problemText({ status: 403, detail: 'This operation requires the evidence:approve scope' }, 403)).toBe(
      'Your sign-in does not include approving runs; someone who does can do it, or ask for that access.',
    );
    expect(problemText({ detail: 'This operation requires one of the scopes evidence:write, evidence:approve, audit:read' }, 403)).toBe(
      'Your sign-in does not include preparing evidence or approving runs or examining the audit log; someone who does can do it, or ask for that access.',
    );
    const own = 'Only someone with evidence:write, or the approver who decided this run, may build its binder';
    expect(problemText({ detail: own }, 403)).toBe(own);
    expect(problemText({ detail: 'The run is not open' }, 409)).toBe('The run is not open');
    expect(problemText(null, 502)).toBe('The request failed (502).');
  });
});
