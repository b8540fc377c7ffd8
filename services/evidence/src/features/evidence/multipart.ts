import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import busboy from 'busboy';
import type { Request } from 'express';
import { HttpProblem, displayFileName, problems } from '@platform/http';
import { SNIFF_BYTES } from './content-type';

/** Hashes, measures and inspects bytes as they stream past, keeping only the head in memory. */
class ByteInspector extends Transform {
  private readonly hash = createHash('sha256');
  private readonly decoder = new TextDecoder('utf-8', { fatal: true });
  private readonly headChunks: Buffer[] = [];
  private headLength = 0;
  size = 0;
  utf8Text = true;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.hash.update(chunk);
    this.size += chunk.length;
    if (this.headLength < SNIFF_BYTES) {
      const slice = chunk.subarray(0, SNIFF_BYTES - this.headLength);
      this.headChunks.push(Buffer.from(slice));
      this.headLength += slice.length;
    }
    if (this.utf8Text) {
      try {
        this.decoder.decode(chunk, { stream: true });
        if (chunk.includes(0)) this.utf8Text = false;
      } catch {
        this.utf8Text = false;
      }
    }
    callback(null, chunk);
  }

  override _flush(callback: TransformCallback): void {
    if (this.utf8Text) {
      try {
        this.decoder.decode();
      } catch {
        this.utf8Text = false;
      }
    }
    callback();
  }

  digest(): string {
    return this.hash.digest('hex');
  }

  head(): Buffer {
    return Buffer.concat(this.headChunks);
  }
}

export interface ReceivedFile {
  tempPath: string;
  sha256: string;
  size: number;
  head: Buffer;
  utf8Text: boolean;
  fileName?: string;
  declaredType?: string;
}

export interface ReceivedForm {
  fields: Record<string, string>;
  file: ReceivedFile;
}

const FIELD_MAX_BYTES = 64 * 1024;

/**
 * Streams a multipart/form-data body with one `file` part and text fields to a temporary file,
 * hashing while it streams. Rejects with a problem (400 malformed or unexpected parts, 413 over
 * `maxBytes`) and then leaves no temporary file behind.
 */
export function receiveMultipart(req: Request, options: { maxBytes: number; tempPath: () => Promise<string> }): Promise<ReceivedForm> {
  return new Promise<ReceivedForm>((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: req.headers, defParamCharset: 'utf8', limits: { files: 1, fileSize: options.maxBytes, fields: 20, fieldSize: FIELD_MAX_BYTES, parts: 21 } });
    } catch {
      reject(problems.badRequest('The multipart/form-data body has no boundary'));
      return;
    }
    const fields: Record<string, string> = {};
    let settled = false;
    let received: Promise<ReceivedFile> | undefined;
    let activeInspector: ByteInspector | undefined;
    let tempPath: string | undefined;

    const fail = (problem: HttpProblem) => {
      if (settled) return;
      settled = true;
      req.unpipe(parser);
      req.resume();
      // Erroring the middle of the pipeline settles it whatever state busboy's file stream is in.
      activeInspector?.destroy(new Error('upload refused'));
      const discard = () => (tempPath ? rm(tempPath, { force: true }) : undefined);
      (received ?? Promise.resolve()).then(discard, discard).finally(() => reject(problem));
    };

    parser.on('field', (name, value, info) => {
      if (info.valueTruncated) return fail(problems.payloadTooLarge(`The field ${name} exceeds ${FIELD_MAX_BYTES} bytes`));
      if (name in fields) return fail(problems.badRequest(`The field ${name} is sent more than once`, [{ pointer: `/${name}`, message: 'is repeated' }]));
      fields[name] = value;
    });
    parser.on('file', (name, stream, info) => {
      if (settled) return void stream.resume();
      if (name !== 'file') {
        stream.resume();
        return fail(problems.badRequest(`Unexpected file part ${name}; the file goes in the part named file`, [{ pointer: `/${name}`, message: 'is not an accepted field' }]));
      }
      const inspector = new ByteInspector();
      // Listen at once: a body that ends mid-file errors this stream before the pipeline below is attached.
      stream.on('error', () => fail(problems.badRequest('The multipart/form-data body ended before the file was complete')));
      stream.on('limit', () => fail(problems.payloadTooLarge(`The file exceeds the ${options.maxBytes}-byte limit`)));
      received = options.tempPath().then(async (target) => {
        // Refused before the first byte was written (e.g. over the limit while buffered): write nothing.
        if (settled) {
          stream.resume();
          throw new Error('upload refused');
        }
        tempPath = target;
        activeInspector = inspector;
        await pipeline(stream, inspector, createWriteStream(target, { flags: 'wx' }));
        return {
          tempPath: target,
          sha256: inspector.digest(),
          size: inspector.size,
          head: inspector.head(),
          utf8Text: inspector.utf8Text,
          fileName: displayFileName(info.filename),
          declaredType: info.mimeType,
        };
      });
      received.catch(() => fail(problems.badRequest('The file part could not be read')));
    });
    parser.on('filesLimit', () => fail(problems.badRequest('Send exactly one file part')));
    parser.on('fieldsLimit', () => fail(problems.badRequest('Too many fields')));
    parser.on('partsLimit', () => fail(problems.badRequest('Too many parts')));
    parser.on('error', () => fail(problems.badRequest('The multipart/form-data body is malformed')));
    parser.on('close', () => {
      if (settled) return;
      if (!received) return fail(problems.badRequest('A file part named file is required', [{ pointer: '/file', message: 'is required' }]));
      received.then(
        (file) => {
          if (settled) return;
          settled = true;
          resolve({ fields, file });
        },
        () => undefined,
      );
    });
    req.on('aborted', () => fail(problems.badRequest('The request was aborted')));
    req.pipe(parser);
  });
}
