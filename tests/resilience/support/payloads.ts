import { randomBytes, randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { fnolBody } from '@platform/testing';
import { impossibleDate, refusedTimestamp } from './schema-arbitrary';
import { deflateSync } from 'node:zlib';

/** `fnolBody` (@platform/testing) varied a little by `n`: policy, claimant, loss date, type and description. */
export function claimBody(n = 0): Record<string, unknown> {
  const types = ['auto_collision', 'auto_glass', 'property_water', 'property_fire', 'other'];
  const day = new Date(Date.now() - (1 + (n % 20)) * 86400000).toISOString().slice(0, 10);
  return fnolBody({
    policy_number: `POL-${String(100000 + (n % 900000))}`,
    claimant: { name: `Resilience Claimant ${n}`, email: `claimant${n}@example.com`, phone: '+14155550100' },
    loss: { ...fnolBody().loss, date: day, type: types[n % types.length], description: `Resilience scenario loss ${n} ${randomUUID()}` },
    estimated_amount: { amount: '1200.00', currency: 'USD' },
  });
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buffer: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of buffer) crc = CRC_TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A real 1×1 PNG whose bytes are unique (a random tEXt chunk), so every upload is new content; `padBytes` makes it bigger. */
export function uniquePng(padBytes = 0): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(1, 0);
  header.writeUInt32BE(1, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // truecolour
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk(
      'tEXt',
      Buffer.concat([Buffer.from('Comment\0', 'latin1'), Buffer.from(randomBytes(16).toString('hex')), Buffer.alloc(padBytes, 0x61)]),
    ),
    chunk('IDAT', deflateSync(Buffer.from([0, 255, 0, 0]))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A multipart/form-data body with the given parts, and its Content-Type. */
export function multipart(
  parts: { name: string; filename?: string; contentType?: string; data: Buffer | string }[],
  boundary = `----resilience${randomBytes(8).toString('hex')}`,
) {
  const pieces: Buffer[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.filename !== undefined ? `; filename="${part.filename}"` : ''}`;
    const headers = `--${boundary}\r\nContent-Disposition: ${disposition}\r\n${part.contentType ? `Content-Type: ${part.contentType}\r\n` : ''}\r\n`;
    pieces.push(Buffer.from(headers, 'utf8'), Buffer.isBuffer(part.data) ? part.data : Buffer.from(part.data, 'utf8'), Buffer.from('\r\n'));
  }
  pieces.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(pieces), contentType: `multipart/form-data; boundary=${boundary}` };
}

const base64url = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value), 'utf8').toString('base64url');

/**
 * Cursors a client could craft for every list route: the claims list's `{ c: created_at, i: id }` and the
 * controls list's `{ k: key }`, with impossible instants, text PostgreSQL cannot store, wrong types and
 * shapes, plus what is not base64url JSON at all.
 */
export const craftedCursor: fc.Arbitrary<string> = fc.oneof(
  fc
    .tuple(
      fc.oneof(
        refusedTimestamp,
        impossibleDate.map((d) => `${d}T00:00:00.000000Z`),
        fc.constantFrom('2026-01-01T00:00:00.000000Z', '\u0000', '', 'null'),
      ),
      fc.oneof(fc.uuid(), fc.constantFrom('x', '\u0000', '')),
    )
    .map(([c, i]) => base64url({ c, i })),
  fc
    .constantFrom(
      { c: 1, i: 2 },
      { c: null },
      [],
      null,
      2 ** 64,
      { k: '\u0000' },
      { k: '\ud800' },
      { k: 'A'.repeat(500) },
      { k: ['AC-1'] },
      { k: 'AC-1', extra: true },
    )
    .map(base64url),
  fc
    .constantFrom(
      '{"c":"2026-02-30T00:00:00.000000Z","i":"2b1f0d5e-1111-4111-8111-111111111111"}',
      '{"k":"\\u0000"}',
      '{"c":"\\ud800"}',
      '['.repeat(5000),
      '{"k":12345678901234567890}',
    )
    .map(base64url),
  fc.constantFrom('', '%00', '!!!', '='.repeat(10), 'A'.repeat(5000), '%ff%fe'),
);
