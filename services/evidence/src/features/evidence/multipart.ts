import type { Request, Response } from 'express';
import { receiveMultipart, type FileStorage, type UploadedFile } from '@platform/files';
import { problems } from '@platform/http';

export type ReceivedFile = UploadedFile;

export interface ReceivedForm {
  fields: Record<string, string>;
  file: ReceivedFile;
}

const FIELD_MAX_BYTES = 64 * 1024;

/**
 * Reads an evidence form through the shared upload pipeline: one `file` part streamed to temporary
 * storage while hashed, and text fields each sent once. Rejects with a problem (400 malformed or
 * unexpected parts, 413 over `maxBytes`) and then leaves no temporary object behind.
 */
export async function receiveEvidenceForm(req: Request, res: Response, storage: FileStorage, maxBytes: number): Promise<ReceivedForm> {
  const { files, fields } = await receiveMultipart(req, res, storage, {
    maxFileBytes: maxBytes,
    maxFiles: 1,
    maxFields: 20,
    maxFieldBytes: FIELD_MAX_BYTES,
    problems: {
      LIMIT_FILE_COUNT: problems.badRequest('Send exactly one file part'),
      LIMIT_FIELD_VALUE: problems.payloadTooLarge(`A field exceeds ${FIELD_MAX_BYTES} bytes`),
      LIMIT_FIELD_COUNT: problems.badRequest('Too many fields'),
      LIMIT_PART_COUNT: problems.badRequest('Too many parts'),
    },
  });
  const repeated = Object.entries(fields).find(([, value]) => Array.isArray(value));
  const problem = repeated
    ? problems.badRequest(`The field ${repeated[0]} is sent more than once`, [{ pointer: `/${repeated[0]}`, message: 'is repeated' }])
    : files.length === 0
      ? problems.badRequest('A file part named file is required', [{ pointer: '/file', message: 'is required' }])
      : undefined;
  if (problem) {
    await Promise.all(files.map((file) => storage.discard(file.temporaryId)));
    throw problem;
  }
  return { fields: fields as Record<string, string>, file: files[0] };
}
