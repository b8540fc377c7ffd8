import { crc32, inflateRawSync } from 'node:zlib';

/**
 * Reads the entries of a zip held in memory with Node.js built-ins only: the end-of-central-directory
 * record, the central directory, each local header, then the data (stored, or deflated and inflated with
 * node:zlib), each entry's size and CRC-32 checked. No Zip64: a binder zip that needs it is refused.
 */

const EOCD_SIGNATURE = 0x06054b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const LOCAL_SIGNATURE = 0x04034b50;
const EOCD_SIZE = 22;
const MAX_COMMENT = 0xffff;

export class ZipError extends Error {}

function endOfCentralDirectory(zip: Buffer): number {
  const lowest = Math.max(0, zip.length - EOCD_SIZE - MAX_COMMENT);
  for (let offset = zip.length - EOCD_SIZE; offset >= lowest; offset -= 1) {
    if (zip.readUInt32LE(offset) === EOCD_SIGNATURE) return offset;
  }
  throw new ZipError('not a zip file (no end of central directory record)');
}

/** Every entry's name and bytes, in central directory order. Throws ZipError when the zip is damaged. */
export function readZip(zip: Buffer): Map<string, Buffer> {
  if (zip.length < EOCD_SIZE) throw new ZipError('not a zip file (too short)');
  const eocd = endOfCentralDirectory(zip);
  const count = zip.readUInt16LE(eocd + 10);
  let offset = zip.readUInt32LE(eocd + 16);
  if (count === 0xffff || offset === 0xffffffff) throw new ZipError('Zip64 archives are not supported');
  const entries = new Map<string, Buffer>();
  for (let i = 0; i < count; i += 1) {
    if (offset + 46 > zip.length || zip.readUInt32LE(offset) !== CENTRAL_SIGNATURE)
      throw new ZipError(`damaged central directory at entry ${i + 1}`);
    const flags = zip.readUInt16LE(offset + 8);
    const method = zip.readUInt16LE(offset + 10);
    const crc = zip.readUInt32LE(offset + 16);
    const compressedSize = zip.readUInt32LE(offset + 20);
    const size = zip.readUInt32LE(offset + 24);
    const nameLength = zip.readUInt16LE(offset + 28);
    const extraLength = zip.readUInt16LE(offset + 30);
    const commentLength = zip.readUInt16LE(offset + 32);
    const localOffset = zip.readUInt32LE(offset + 42);
    const name = zip.subarray(offset + 46, offset + 46 + nameLength).toString('utf8');
    offset += 46 + nameLength + extraLength + commentLength;
    if (flags & 0x1) throw new ZipError(`${name}: encrypted entries are not supported`);
    if (localOffset + 30 > zip.length || zip.readUInt32LE(localOffset) !== LOCAL_SIGNATURE)
      throw new ZipError(`${name}: damaged local header`);
    const dataStart = localOffset + 30 + zip.readUInt16LE(localOffset + 26) + zip.readUInt16LE(localOffset + 28);
    const raw = zip.subarray(dataStart, dataStart + compressedSize);
    if (raw.length !== compressedSize) throw new ZipError(`${name}: truncated data`);
    let data: Buffer;
    try {
      if (method === 0) data = Buffer.from(raw);
      else if (method === 8) data = inflateRawSync(raw);
      else throw new ZipError(`${name}: compression method ${method} is not supported`);
    } catch (error) {
      throw error instanceof ZipError ? error : new ZipError(`${name}: cannot be inflated (${(error as Error).message})`);
    }
    if (data.length !== size || crc32(data) !== crc) throw new ZipError(`${name}: size or CRC-32 does not match the central directory`);
    if (entries.has(name)) throw new ZipError(`${name}: appears twice`);
    entries.set(name, data);
  }
  return entries;
}
