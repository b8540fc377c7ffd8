import type { Request, Response } from 'express';
import { detectType, receiveMultipart, type FileStorage, type ReceivedMultipart, type UploadedFile } from '@platform/files';
import { displayFileName, problems } from '@platform/http';

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

export interface ReceivedFile extends UploadedFile {
  /** For display only: the last path segment, without control or format characters. */
  filename: string;
  contentType: string;
  /** The attachment's id, when it was chosen before its row (a sealed file is bound to it). */
  attachmentId?: string;
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
  const detected = await detectType(head);
  const accepted = detected ? ACCEPTED_TYPES[detected.mime] : undefined;
  return accepted && accepted.ext === detected!.ext ? accepted.contentType : undefined;
}

function tooLong(name: string) {
  return problems.badRequest(`"${name}" is too long`, [
    { pointer: `/${name}`, message: `must be at most ${MAX_DESCRIPTION_CHARS} characters` },
  ]);
}

/** The optional `document_type` and `description` fields, each sent at most once; any other field is refused. */
function uploadFields(fields: Record<string, string | string[]>): Pick<ReceivedUpload, 'documentType' | 'description'> {
  for (const [name, value] of Object.entries(fields)) {
    if (name !== 'document_type' && name !== 'description')
      throw problems.badRequest(`Unexpected field "${name.slice(0, 100)}"`, [
        { pointer: `/${name.slice(0, 100)}`, message: 'is not an accepted field' },
      ]);
    if (Array.isArray(value))
      throw problems.badRequest(`"${name}" may be sent once`, [{ pointer: `/${name}`, message: 'may be sent once' }]);
    if (value.includes('\u0000'))
      throw problems.badRequest(`"${name}" contains a NUL character`, [
        { pointer: `/${name}`, message: 'must not contain NUL characters' },
      ]);
    if (name === 'description' && value.length > MAX_DESCRIPTION_CHARS) throw tooLong(name);
  }
  return { documentType: fields.document_type as string | undefined, description: fields.description as string | undefined };
}

/**
 * Reads a claimant's upload through the shared pipeline: `file` parts (at most MAX_FILES, each at most
 * `maxBytes`) streamed to temporary storage while hashed, and text fields (400 malformed or unexpected
 * parts, 413 a file over the limit; nothing is left behind then).
 */
export function receiveUpload(req: Request, res: Response, storage: FileStorage, maxBytes: number): Promise<ReceivedMultipart> {
  return receiveMultipart(req, res, storage, {
    maxFileBytes: maxBytes,
    maxFiles: MAX_FILES,
    maxFields: 4,
    maxFieldBytes: 4 * MAX_DESCRIPTION_CHARS,
    problems: {
      LIMIT_FIELD_VALUE: tooLong('description'),
      LIMIT_FIELD_COUNT: problems.badRequest('Too many fields'),
      LIMIT_PART_COUNT: problems.badRequest('Too many parts'),
    },
  });
}

/**
 * What the upload holds: `document_type` and `description` optional fields, at least one file, each of
 * an accepted type by its bytes (400 a wrong field or no file, 415 bytes that are not an accepted type).
 */
export async function acceptUpload({ files, fields }: ReceivedMultipart): Promise<ReceivedUpload> {
  const received = uploadFields(fields);
  if (files.length === 0) throw problems.badRequest('At least one `file` part is required', [{ pointer: '/file', message: 'is required' }]);
  const typed: ReceivedFile[] = [];
  for (const file of files) {
    const contentType = await acceptedType(file.head);
    if (!contentType)
      throw problems.unsupportedMediaType(`The bytes of a file are not an accepted type (${ACCEPTED_CONTENT_TYPES.join(', ')})`);
    typed.push({ ...file, filename: displayFilename(file.fileName), contentType });
  }
  return { files: typed, ...received };
}
