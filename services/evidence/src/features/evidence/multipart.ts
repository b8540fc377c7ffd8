import type { Request, Response } from 'express';
import { receiveMultipart, type FileStorage, type ReceivedMultipart, type UploadedFile } from '@platform/files';
import { problems } from '@platform/http';

export interface ReceivedForm {
  fields: Record<string, string>;
  file: UploadedFile;
}

const FIELD_MAX_BYTES = 64 * 1024;

/**
 * Reads an evidence form through the shared upload pipeline: one `file` part streamed to temporary
 * storage while hashed, and text fields (400 malformed or unexpected parts, 413 over `maxBytes`; nothing
 * is left behind then).
 */
export function receiveEvidenceForm(req: Request, res: Response, storage: FileStorage, maxBytes: number): Promise<ReceivedMultipart> {
  return receiveMultipart(req, res, storage, {
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
}

/** The form holds one file and each text field once (400 otherwise). */
export function evidenceForm({ files, fields }: ReceivedMultipart): ReceivedForm {
  const repeated = Object.entries(fields).find(([, value]) => Array.isArray(value));
  if (repeated)
    throw problems.badRequest(`The field ${repeated[0]} is sent more than once`, [{ pointer: `/${repeated[0]}`, message: 'is repeated' }]);
  if (files.length === 0) throw problems.badRequest('A file part named file is required', [{ pointer: '/file', message: 'is required' }]);
  return { fields: fields as Record<string, string>, file: files[0] };
}
