import { randomBytes, randomUUID } from 'node:crypto';
import { deflateSync } from 'node:zlib';

/** A valid first notice of loss (CONTRACT.md §3); `n` varies it a little. */
export function claimBody(n = 0): Record<string, unknown> {
  const types = ['auto_collision', 'auto_glass', 'property_water', 'property_fire', 'other'];
  const day = new Date(Date.now() - (1 + (n % 20)) * 86400000).toISOString().slice(0, 10);
  return {
    policy_number: `POL-${String(100000 + (n % 900000))}`,
    claimant: { name: `Resilience Claimant ${n}`, email: `claimant${n}@example.com`, phone: '+14155550100' },
    loss: {
      date: day,
      type: types[n % types.length],
      description: `Resilience scenario loss ${n} ${randomUUID()}`,
      location: { address_line: '1 Main St', city: 'Springfield', postal_code: '12345', country: 'US' },
    },
    injuries: false,
    estimated_amount: { amount: '1200.00', currency: 'USD' },
    preferred_channel: 'email',
    language: 'en',
  };
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
    chunk('tEXt', Buffer.concat([Buffer.from('Comment\0', 'latin1'), Buffer.from(randomBytes(16).toString('hex')), Buffer.alloc(padBytes, 0x61)])),
    chunk('IDAT', deflateSync(Buffer.from([0, 255, 0, 0]))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A multipart/form-data body with the given parts, and its Content-Type. */
export function multipart(parts: { name: string; filename?: string; contentType?: string; data: Buffer | string }[], boundary = `----resilience${randomBytes(8).toString('hex')}`) {
  const pieces: Buffer[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.filename !== undefined ? `; filename="${part.filename}"` : ''}`;
    const headers = `--${boundary}\r\nContent-Disposition: ${disposition}\r\n${part.contentType ? `Content-Type: ${part.contentType}\r\n` : ''}\r\n`;
    pieces.push(Buffer.from(headers, 'utf8'), Buffer.isBuffer(part.data) ? part.data : Buffer.from(part.data, 'utf8'), Buffer.from('\r\n'));
  }
  pieces.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(pieces), contentType: `multipart/form-data; boundary=${boundary}` };
}
