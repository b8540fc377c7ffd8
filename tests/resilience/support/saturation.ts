import { readFileSync } from 'node:fs';
import path from 'node:path';
import { claimBody, multipart, uniquePng } from './payloads';

const BENCH_RESULTS = path.resolve(__dirname, '../../../bench/results.json');

/** Intakes a second the claims service sustained at saturation in the last `pnpm bench` (bench/results.json). */
export function benchIntakeSaturation(): { rps: number; measuredAt: string } | undefined {
  try {
    const results = JSON.parse(readFileSync(BENCH_RESULTS, 'utf8')) as { generated_at: string; intake?: { service_rps?: number } };
    return results.intake?.service_rps ? { rps: results.intake.service_rps, measuredAt: results.generated_at } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Saturation of intake-then-upload through `target`, measured now on this machine (which other work may be
 * sharing): `concurrency` clients each filing a claim and uploading one file, back to back, for `warmupSeconds`
 * unmeasured (connections, pools, lazily loaded code), then `seconds` measured.
 * Returns the pairs completed per second with both answers 201.
 */
export async function measureIntakeUploadSaturation(
  target: string,
  options: { warmupSeconds: number; seconds: number; concurrency: number; uploadBytes: number },
): Promise<number> {
  const started = Date.now() + options.warmupSeconds * 1000;
  const deadline = started + options.seconds * 1000;
  let completed = 0;
  const client = async (worker: number) => {
    for (let n = 0; Date.now() < deadline; n++) {
      const intake = await fetch(`${target}/api/claims/public/claims`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(claimBody(worker * 100000 + n)),
      });
      const claim = (await intake.json()) as { claim_id: string; access_token: string };
      if (intake.status !== 201) continue;
      const { body, contentType } = multipart([
        { name: 'document_type', data: 'other' },
        { name: 'file', filename: 'saturation.png', contentType: 'image/png', data: uniquePng(options.uploadBytes) },
      ]);
      const upload = await fetch(`${target}/api/claims/public/claims/${claim.claim_id}/attachments`, {
        method: 'POST',
        headers: { authorization: `Bearer ${claim.access_token}`, 'content-type': contentType },
        body,
      });
      await upload.arrayBuffer();
      if (upload.status === 201 && Date.now() > started) completed += 1;
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, (_, worker) => client(worker)));
  return completed / options.seconds;
}
