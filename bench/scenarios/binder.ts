import { randomBytes, randomUUID } from 'node:crypto';
import { bearer } from '@platform/testing';
import type { BenchContext, Scenario } from '../harness/context';
import { rssSampler } from '../harness/process-tree';
import { median, round } from '../harness/stats';

async function call(url: string, init: RequestInit, expected: number): Promise<any> {
  const response = await fetch(url, init);
  const text = await response.text();
  if (response.status !== expected)
    throw new Error(`${init.method ?? 'GET'} ${new URL(url).pathname} answered ${response.status}: ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : undefined;
}

/** Every tenth item is a small PDF file (multipart); the others are JSON records. */
async function addEvidence(baseUrl: string, runId: string, index: number, authorization: string): Promise<void> {
  const url = `${baseUrl}/api/evidence/runs/${runId}/evidence`;
  if (index % 10 === 0) {
    const form = new FormData();
    const bytes = Buffer.concat([Buffer.from(`%PDF-1.7\n%${randomUUID()}\n`), randomBytes(16 * 1024)]);
    form.append('kind', 'file');
    form.append('title', `Access review export ${index}`);
    form.append('file', new Blob([bytes], { type: 'application/pdf' }), `export-${index}.pdf`);
    await call(url, { method: 'POST', headers: { authorization }, body: form }, 201);
    return;
  }
  const body = {
    kind: 'record',
    title: `Quarterly access review, account ${index}`,
    description: 'Reviewer confirmed the entitlements of the account against the HR roster.',
    data: { account: `acct-${index}`, reviewer: 'alice', entitlements: ['read', 'write'], approved: index % 7 !== 0 },
    collected_at: '2026-11-20T10:00:00Z',
    source: 'iam-export',
  };
  await call(url, { method: 'POST', headers: { authorization, 'content-type': 'application/json' }, body: JSON.stringify(body) }, 201);
}

/**
 * binder.seconds_per_10k_evidence: a run with `binderItems` evidence items (10,000 in the full run;
 * scaled to 10,000 in --quick), then POST /binders/run/{id} and the streamed zip download to the end,
 * timed together; the evidence process's RSS is sampled throughout (memory should stay flat).
 */
export const binderScenario: Scenario = {
  name: 'binder',
  keys: ['seconds_per_10k_evidence', 'rss_growth_mb'],
  async run(context: BenchContext) {
    const { params, stack } = context;
    const base = stack.evidence.url;
    const writer = await bearer('evidence:write', 'bench-collector');
    const auditor = await bearer('audit:read', 'bench-examiner');
    const json = { 'content-type': 'application/json' };
    const control = await call(
      `${base}/api/evidence/controls`,
      {
        method: 'POST',
        headers: { ...json, authorization: writer },
        body: JSON.stringify({ key: `BENCH-${randomUUID().slice(0, 8)}`, title: 'Quarterly access review', frequency: 'quarterly' }),
      },
      201,
    );
    const run = await call(
      `${base}/api/evidence/runs`,
      {
        method: 'POST',
        headers: { ...json, authorization: writer },
        body: JSON.stringify({
          control_version_id: control.current_version.control_version_id,
          period_start: '2026-07-01',
          period_end: '2026-09-30',
        }),
      },
      201,
    );
    const started = Date.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < params.binderItems) await addEvidence(base, run.run_id, next++, writer);
      }),
    );
    context.log(`  ${params.binderItems} evidence items added in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    const pid = stack.evidence.pid();
    if (!pid) throw new Error('evidence process has no pid');
    const rounds: { build_s: number; download_s: number; zip_mb: number; rss_growth_mb: number }[] = [];
    for (let i = 0; i < Math.min(3, params.rounds); i++) {
      const memory = rssSampler(pid);
      const t0 = process.hrtime.bigint();
      const binder = await call(
        `${base}/api/evidence/binders/run/${run.run_id}`,
        { method: 'POST', headers: { authorization: writer } },
        201,
      );
      const t1 = process.hrtime.bigint();
      // download_url names the public (gateway) address; the same path is fetched at the service.
      const download = new URL(binder.download_url, base);
      const response = await fetch(`${base}${download.pathname}${download.search}`, { headers: { authorization: auditor } });
      if (response.status !== 200 || !response.body) throw new Error(`binder download answered ${response.status}`);
      let bytes = 0;
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) bytes += chunk.length;
      const t2 = process.hrtime.bigint();
      const rss = memory.stop();
      rounds.push({
        build_s: Number(t1 - t0) / 1e9,
        download_s: Number(t2 - t1) / 1e9,
        zip_mb: bytes / 1048576,
        rss_growth_mb: rss.growth_mb,
      });
    }
    const seconds = median(rounds.map((r) => r.build_s + r.download_s));
    return {
      seconds_per_10k_evidence: round((seconds * 10000) / params.binderItems, 2),
      rss_growth_mb: round(median(rounds.map((r) => r.rss_growth_mb)), 1),
      evidence_items: params.binderItems,
      build_s: round(median(rounds.map((r) => r.build_s)), 2),
      download_s: round(median(rounds.map((r) => r.download_s)), 2),
      zip_mb: round(median(rounds.map((r) => r.zip_mb)), 1),
      rounds,
    };
  },
};
