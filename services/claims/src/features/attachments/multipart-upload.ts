import busboy from 'busboy';
import type { Request } from 'express';
import FileType from 'file-type';
import { HttpProblem, displayFileName, problems } from '@platform/http';
import { removeFile, spoolToTempFile, type SpooledFile } from './attachment-storage';

/** What the bytes must be (decided by content with file-type, never by name or declared type). */
const ACCEPTED_TYPES: Readonly<Record<string, { ext: string; contentType: string }>> = {
  'application/pdf': { ext: 'pdf', contentType: 'application/pdf' },
  'image/jpeg': { ext: 'jpg', contentType: 'image/jpeg' },
  'image/png': { ext: 'png', contentType: 'image/png' },
  'image/heic': { ext: 'heic', contentType: 'image/heic' },
  'image/heif': { ext: 'heic', contentType: 'image/heic' },
  'image/webp': { ext: 'webp', contentType: 'image/webp' },
  'video/mp4': { ext: 'mp4', contentType: 'video/mp4' },
};
export const ACCEPTED_CONTENT_TYPES = ['application/pdf', 'image/jpeg', 'image/png', 'image/heic', 'image/webp', 'video/mp4'];

export const MAX_FILES = 10;
const MAX_DESCRIPTION_CHARS = 1000;

export interface ReceivedFile extends SpooledFile {
  /** For display only: the last path segment, without control or format characters. */
  filename: string;
  contentType: string;
}

export interface ReceivedUpload {
  files: ReceivedFile[];
  documentType?: string;
  description?: string;
}

/** A claimant's file name as it may be displayed (see displayFileName), `attachment` when none is left. */
export function displayFilename(raw: string | undefined): string {
  return displayFileName(raw) ?? 'attachment';
}

async function acceptedType(head: Buffer): Promise<string | undefined> {
  const detected = await FileType.fromBuffer(head);
  const accepted = detected ? ACCEPTED_TYPES[detected.mime] : undefined;
  return accepted && accepted.ext === detected!.ext ? accepted.contentType : undefined;
}

/**
 * Reads a multipart/form-data upload: `file` parts (at most MAX_FILES, each at most `maxBytes`) are
 * streamed to temporary files while hashed; `document_type` and `description` are optional fields.
 * The request is read to its end before answering, except past the size cap, where reading stops at once
 * (the problem answer then closes the connection). On any rejection every temporary file is removed and
 * the problem is thrown (400 malformed or unexpected parts, 413 a file over the limit, 415 bytes that
 * are not an accepted type).
 */
export function receiveUpload(req: Request, dataDir: string, maxBytes: number): Promise<ReceivedUpload> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        defParamCharset: 'utf8', // browsers send file names as raw UTF-8
        // fileSize is one byte over the limit, which tells "too large" from "exactly the limit"
        limits: { files: MAX_FILES, fileSize: maxBytes + 1, fields: 4, fieldSize: 4 * MAX_DESCRIPTION_CHARS, parts: MAX_FILES + 4, fieldNameSize: 100 },
      });
    } catch {
      req.resume();
      reject(problems.badRequest('The multipart/form-data body has no boundary'));
      return;
    }
    const spooled: Promise<ReceivedFile | undefined>[] = [];
    const fields: { documentType?: string; description?: string } = {};
    let failure: HttpProblem | undefined;
    let settled = false;
    const fail = (problem: HttpProblem) => {
      failure ??= problem;
    };

    const finish = async (abortError?: HttpProblem) => {
      if (settled) return;
      settled = true;
      const results = await Promise.allSettled(spooled);
      const files = results.flatMap((result) => (result.status === 'fulfilled' && result.value ? [result.value] : []));
      const problem = abortError ?? failure ?? (results.some((result) => result.status === 'rejected') ? problems.badRequest('The upload could not be read') : undefined);
      if (problem) {
        await Promise.all(files.map((file) => removeFile(file.tempPath)));
        reject(problem);
        return;
      }
      if (files.length === 0) {
        reject(problems.badRequest('At least one `file` part is required', [{ pointer: '/file', message: 'is required' }]));
        return;
      }
      resolve({ files, ...fields });
    };

    parser.on('file', (name, stream, info) => {
      if (failure || name !== 'file') {
        if (name !== 'file') fail(problems.badRequest(`Unexpected file part "${name.slice(0, 100)}"; files go in "file" parts`));
        stream.resume();
        return;
      }
      // Over the cap: stop reading at once (the answer closes the connection) rather than drain the rest.
      stream.on('limit', () => {
        req.unpipe(parser);
        stream.destroy(new Error('file over the size limit'));
        void finish(problems.payloadTooLarge(`A file exceeds the ${maxBytes}-byte limit`));
      });
      // Until the spooling pipeline is attached, a parse error destroying the stream must not go unhandled.
      stream.on('error', () => undefined);
      spooled.push(
        (async () => {
          const file = await spoolToTempFile(stream, dataDir);
          const tooLarge = file.sizeBytes > maxBytes;
          const contentType = tooLarge ? undefined : await acceptedType(file.head);
          if (tooLarge) fail(problems.payloadTooLarge(`A file exceeds the ${maxBytes}-byte limit`));
          else if (!contentType) fail(problems.unsupportedMediaType(`The bytes of a file are not an accepted type (${ACCEPTED_CONTENT_TYPES.join(', ')})`));
          if (tooLarge || !contentType) {
            await removeFile(file.tempPath);
            return undefined;
          }
          return { ...file, filename: displayFilename(info.filename), contentType };
        })(),
      );
    });
    parser.on('field', (name, value, info) => {
      if (name !== 'document_type' && name !== 'description') return fail(problems.badRequest(`Unexpected field "${name.slice(0, 100)}"`, [{ pointer: `/${name.slice(0, 100)}`, message: 'is not an accepted field' }]));
      const key = name === 'document_type' ? 'documentType' : 'description';
      if (fields[key] !== undefined) return fail(problems.badRequest(`"${name}" may be sent once`, [{ pointer: `/${name}`, message: 'may be sent once' }]));
      if (value.includes('\u0000')) return fail(problems.badRequest(`"${name}" contains a NUL character`, [{ pointer: `/${name}`, message: 'must not contain NUL characters' }]));
      if (info.valueTruncated || (name === 'description' && value.length > MAX_DESCRIPTION_CHARS)) {
        return fail(problems.badRequest(`"${name}" is too long`, [{ pointer: `/${name}`, message: `must be at most ${MAX_DESCRIPTION_CHARS} characters` }]));
      }
      fields[key] = value;
    });
    parser.on('filesLimit', () => fail(problems.badRequest(`At most ${MAX_FILES} files per request`, [{ pointer: '/file', message: `must have at most ${MAX_FILES} items` }])));
    parser.on('fieldsLimit', () => fail(problems.badRequest('Too many fields')));
    parser.on('partsLimit', () => fail(problems.badRequest('Too many parts')));
    parser.on('error', () => {
      req.unpipe(parser);
      req.resume();
      void finish(problems.badRequest('The multipart/form-data body is malformed or incomplete'));
    });
    parser.on('close', () => void finish());
    const abort = () => {
      req.unpipe(parser);
      parser.destroy(new Error('The upload was aborted')); // ends an unfinished file stream with an error
      void finish(problems.badRequest('The upload was aborted'));
    };
    req.on('aborted', abort);
    req.on('error', abort);
    req.pipe(parser);
  });
}
