import { Readable } from 'node:stream';
import { EICAR, EICAR_SIGNATURE, startTestClamd, type TestClamd } from '@platform/testing';
import { HttpProblem } from '@platform/http';
import { assertServable, clamdScanner, scanUpload, ScannerUnavailableError, virusScannerFrom } from './virus-scanner';

const bytes = (text: string) => async () => Readable.from([Buffer.from(text)]);

describe('the clamd scanner (a real clamd with a one-line EICAR signature)', () => {
  let clamd: TestClamd;
  beforeAll(async () => {
    clamd = await startTestClamd();
  }, 60000);
  afterAll(async () => {
    await clamd?.close();
  });

  it('finds clean bytes clean and names the signature in infected ones', async () => {
    const scanner = clamdScanner(clamd.url, 5000);
    expect(await scanner.scanFile(bytes('an ordinary letter'))).toEqual({ status: 'clean', signature: null });
    const infected = await scanner.scanFile(bytes(`before ${EICAR} after`));
    expect(infected.status).toBe('infected');
    expect(infected.signature).toContain(EICAR_SIGNATURE);
  });

  it('streams a file larger than one INSTREAM chunk, with the threat past the first chunk', async () => {
    const scanner = clamdScanner(clamd.url, 5000);
    const padding = Buffer.alloc(200 * 1024, 'a');
    const verdict = await scanner.scanFile(async () => Readable.from([padding, Buffer.from(EICAR)]));
    expect(verdict.status).toBe('infected');
  });

  it('gives no verdict while clamd is down: ScannerUnavailableError, and an upload is stored pending', async () => {
    const scanner = clamdScanner(clamd.url, 2000);
    await clamd.stop();
    try {
      await expect(scanner.scanFile(bytes('anything'))).rejects.toBeInstanceOf(ScannerUnavailableError);
      expect(await scanUpload(scanner, bytes('anything'))).toEqual({ status: 'pending', signature: null });
    } finally {
      await clamd.start();
    }
    expect(await scanUpload(scanner, bytes('anything'))).toEqual({ status: 'clean', signature: null });
  });
});

describe('without a scanner (CLAMD_URL unset)', () => {
  it('stores uploads not_scanned', async () => {
    const scanner = virusScannerFrom({ CLAMD_TIMEOUT_MS: 1000 });
    expect(scanner).toBeUndefined();
    expect(await scanUpload(scanner, bytes('anything'))).toEqual({ status: 'not_scanned', signature: null });
  });
});

describe('assertServable', () => {
  it('serves clean and not_scanned files, and answers 423 for quarantined and pending ones', () => {
    expect(() => assertServable('clean')).not.toThrow();
    expect(() => assertServable('not_scanned')).not.toThrow();
    for (const status of ['infected', 'pending'] as const) {
      let problem: unknown;
      try {
        assertServable(status);
      } catch (error) {
        problem = error;
      }
      expect(problem).toBeInstanceOf(HttpProblem);
      expect(problem).toMatchObject({ status: 423 });
    }
  });
});
