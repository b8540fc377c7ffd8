/**
 * Run by evidence-redaction-embedded.test.ts in a child process (PGlite needs a real dynamic import, which
 * jest's sandbox lacks): an evidence file redacted on embedded PGlite and local storage. Prints one JSON
 * line of observations.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runService } from '@platform/runtime';
import { TEST_JWT_SECRET, bearer } from '@platform/testing';
import { readEvidenceConfig } from '../config';
import { evidenceStorage } from '../features/evidence';
import { evidenceService } from '../service';

const pdf = (text: string) => new Blob([`%PDF-1.4\n% ${text}\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n`]);

async function main(): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'evidence-embedded-'));
  const config = readEvidenceConfig({
    NODE_ENV: 'test',
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    AUTH_JWT_SECRET: TEST_JWT_SECRET,
  });
  const service = await runService(evidenceService(config), config);
  try {
    const headers = (scope: string) => bearer(scope, 'someone').then((Authorization) => ({ Authorization }));
    const post = async (pathName: string, scope: string, body: object | FormData) => {
      const response = await fetch(`${service.url}/api/evidence/${pathName}`, {
        method: 'POST',
        headers: { ...(await headers(scope)), ...(body instanceof FormData ? {} : { 'Content-Type': 'application/json' }) },
        body: body instanceof FormData ? body : JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as Record<string, any> };
    };
    const form = (fields: Record<string, string>, file: Blob) => {
      const data = new FormData();
      for (const [name, value] of Object.entries(fields)) data.append(name, value);
      data.append('file', file, 'review.pdf');
      return data;
    };
    const control = await post('controls', 'evidence:write', { key: 'EMB-1', title: 'Access reviews', frequency: 'quarterly' });
    const run = await post('runs', 'evidence:write', {
      control_version_id: control.body.current_version.control_version_id,
      period_start: '2026-01-01',
      period_end: '2026-03-31',
    });
    const original = await post(`runs/${run.body.run_id}/evidence`, 'evidence:write', form({}, pdf('claimant: Jane Roe')));
    const redaction = await post(
      `evidence/${original.body.evidence_id}/redaction`,
      'privacy:manage',
      form({ reason: 'Personal data' }, pdf('[redacted]')),
    );
    const again = await post(
      `evidence/${original.body.evidence_id}/redaction`,
      'privacy:manage',
      form({ reason: 'Again' }, pdf('[again]')),
    );
    const content = await fetch(`${service.url}/api/evidence/evidence/${original.body.evidence_id}/content`, {
      headers: await headers('audit:read'),
    });
    const verify = await fetch(`${service.url}/api/evidence/audit/verify`, { headers: await headers('audit:read') });
    const files = evidenceStorage(config, dataDir);
    console.log(
      JSON.stringify({
        redaction: redaction.status,
        supersedes: redaction.body.evidence?.supersedes === original.body.evidence_id,
        again: again.status,
        content: content.status,
        originalBytesStored: await files.has(original.body.sha256),
        redactedBytesStored: await files.has(redaction.body.evidence?.sha256),
        logValid: ((await verify.json()) as { valid: boolean }).valid,
      }),
    );
  } finally {
    await service.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
