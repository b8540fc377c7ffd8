import { createPrivateKey, generateKeyPairSync } from 'node:crypto';
import {
  formatCheckpoint,
  formatVerifierKey,
  noteKeyHash,
  parseCheckpoint,
  parseNote,
  parseVerifierKey,
  signNote,
  verifyNote,
} from './index';

// The example of c2sp.org/signed-note and golang.org/x/mod/sumdb/note (data values only).
const PETER_SIGNER_SEED = Buffer.from('AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz', 'base64').subarray(1);
const PETER_VERIFIER_KEY = 'PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW';
const PETER_TEXT = "If you think cryptography is the answer to your problem,\nthen you don't know what your problem is.\n";
const PETER_NOTE = `${PETER_TEXT}\n\u2014 PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n`;
const peterPrivateKey = createPrivateKey({
  key: Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), PETER_SIGNER_SEED]),
  format: 'der',
  type: 'pkcs8',
});

describe('C2SP signed notes and checkpoints', () => {
  it('reproduces the published signed note byte for byte, with its key hash and verifier key', () => {
    expect(signNote(PETER_TEXT, 'PeterNeumann', peterPrivateKey)).toBe(PETER_NOTE);
    expect(noteKeyHash('PeterNeumann', peterPrivateKey).toString('hex')).toBe('c74f20a3');
    expect(formatVerifierKey('PeterNeumann', peterPrivateKey)).toBe(PETER_VERIFIER_KEY);
  });

  it('verifies the published note with the published verifier key, and nothing altered', () => {
    const { keyName, publicKey } = parseVerifierKey(PETER_VERIFIER_KEY)!;
    expect(verifyNote(PETER_NOTE, keyName, publicKey)).toBe(PETER_TEXT);
    expect(verifyNote(PETER_NOTE.replace('cryptography', 'cryptographY'), keyName, publicKey)).toBeUndefined();
    expect(verifyNote(PETER_NOTE, 'EnochRoot', publicKey)).toBeUndefined();
    expect(verifyNote(PETER_NOTE, keyName, generateKeyPairSync('ed25519').publicKey)).toBeUndefined();
    expect(parseVerifierKey(PETER_VERIFIER_KEY.replace('c74f20a3', 'c74f20a4'))).toBeUndefined();
  });

  it('keeps every signature line and finds the trusted one among others', () => {
    const other = generateKeyPairSync('ed25519').privateKey;
    const note = `${signNote(PETER_TEXT, 'other.example', other)}${signNote(PETER_TEXT, 'PeterNeumann', peterPrivateKey).split('\n\n')[1]}`;
    expect(parseNote(note)!.signatures.map((s) => s.keyName)).toEqual(['other.example', 'PeterNeumann']);
    expect(verifyNote(note, 'PeterNeumann', peterPrivateKey)).toBe(PETER_TEXT);
    expect(parseNote(PETER_TEXT)).toBeUndefined();
    expect(parseNote(`${PETER_TEXT}\nnot a signature\n`)).toBeUndefined();
  });

  it('writes and reads the tlog-checkpoint body', () => {
    const rootHash = Buffer.from('5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328', 'hex');
    const text = formatCheckpoint({ origin: 'example.com/audit', size: 8, rootHash });
    expect(text).toBe('example.com/audit\n8\nXcnaeacGWamtVZy3Ad7ZoqudgjqtL0lgz+Nw7/RgQyg=\n');
    expect(parseCheckpoint(text)).toEqual({ origin: 'example.com/audit', size: 8, rootHash });
    expect(parseCheckpoint('example.com/audit\n08\nXcnaeacGWamtVZy3Ad7ZoqudgjqtL0lgz+Nw7/RgQyg=\n')).toBeUndefined();
    expect(parseCheckpoint('example.com/audit\n8\nAAAA\n')).toBeUndefined();
  });
});
