import type { Request, Response } from 'express';
import multer, { MulterError, type StorageEngine } from 'multer';
import { HttpProblem, displayFileName, problems } from '@platform/http';
import { ByteInspector, FileTooLargeError } from './byte-inspector';
import type { FileStorage } from './file-storage';

/** A file of an upload, complete in temporary storage: not visible at a content address until placed. */
export interface UploadedFile {
  temporaryId: string;
  sha256: string;
  sizeBytes: number;
  /** The first SNIFF_BYTES bytes, to decide the type by content. */
  head: Buffer;
  utf8Text: boolean;
  /** For display only (see displayFileName); undefined when nothing displayable is left. */
  fileName?: string;
  declaredType: string;
  /**
   * Where it is placed when not at `sha256`: an encrypted file (sealed-files.ts) is stored under the SHA-256
   * of its stored bytes, so that the same plaintext sealed for two owners never shares an address.
   */
  storedAs?: string;
}

/** The content address a file is placed at. */
export const storedAddress = (file: { sha256: string; storedAs?: string }) => file.storedAs ?? file.sha256;

export interface ReceivedMultipart {
  files: UploadedFile[];
  /** Text fields; a name sent more than once holds an array. */
  fields: Record<string, string | string[]>;
}

export interface UploadRules {
  maxFileBytes: number;
  maxFiles: number;
  maxFields: number;
  maxFieldBytes: number;
  /** The problem for each multer refusal a caller words its own way (the rest are 400s). */
  problems?: Partial<Record<MulterError['code'], HttpProblem>>;
}

/** The upload's state stays with its request: the engine is shared by every request of the route. */
interface InFlight {
  writes: Promise<UploadedFile | undefined>[];
  overCap?: () => void;
}
const inFlight = new WeakMap<Request, InFlight>();

/**
 * A multer storage engine that streams each `file` part through a ByteInspector (SHA-256, size cap, head
 * for type sniffing) into temporary storage; memory holds a chunk and the head, never the file.
 */
function inspectingStorage(storage: FileStorage, maxFileBytes: number): StorageEngine {
  return {
    _handleFile(req, file, callback) {
      const upload = inFlight.get(req as Request)!;
      const inspector = new ByteInspector(maxFileBytes);
      file.stream.on('error', (error) => inspector.destroy(error));
      inspector.on('error', (error) => {
        file.stream.unpipe(inspector);
        if (error instanceof FileTooLargeError) upload.overCap?.();
      });
      const written = storage.writeTemporary(file.stream.pipe(inspector)).then((temporaryId) => ({
        temporaryId,
        sha256: inspector.digest(),
        sizeBytes: inspector.size,
        head: inspector.head(),
        utf8Text: inspector.utf8Text,
        fileName: displayFileName(file.originalname),
        declaredType: file.mimetype,
      }));
      upload.writes.push(written.catch(() => undefined));
      written.then(
        (uploaded) => callback(null, uploaded as unknown as Partial<Express.Multer.File>),
        (error: Error) => callback(error),
      );
    },
    _removeFile(_req, file, callback) {
      storage.discard((file as unknown as UploadedFile).temporaryId).then(() => callback(null), callback);
    },
  };
}

function problemFor(error: unknown, rules: UploadRules): HttpProblem {
  if (error instanceof HttpProblem) return error;
  if (error instanceof FileTooLargeError) return problems.payloadTooLarge(`A file exceeds the ${rules.maxFileBytes}-byte limit`);
  if (error instanceof MulterError) {
    const worded = rules.problems?.[error.code];
    if (worded) return worded;
    if (error.code === 'LIMIT_FILE_COUNT')
      return problems.badRequest(`At most ${rules.maxFiles} files per request`, [
        { pointer: '/file', message: `must have at most ${rules.maxFiles} items` },
      ]);
    if (error.code === 'LIMIT_UNEXPECTED_FILE')
      return problems.badRequest(`Unexpected file part "${String(error.field).slice(0, 100)}"; files go in "file" parts`);
    return problems.badRequest(`The multipart/form-data body was refused: ${error.message}`);
  }
  if (/aborted|closed/i.test((error as Error)?.message ?? '')) return problems.badRequest('The upload was aborted');
  return problems.badRequest('The multipart/form-data body is malformed or incomplete');
}

/**
 * Receives a multipart/form-data upload with multer: `file` parts (at most `maxFiles`, each at most
 * `maxFileBytes`) go to temporary storage, other parts are text fields. Past the size cap reading stops at
 * once (the problem answer then closes the connection). On any refusal or abort every temporary object
 * of the request is discarded before the problem is thrown; on success the caller places or discards them.
 */
export function receiveMultipart(req: Request, res: Response, storage: FileStorage, rules: UploadRules): Promise<ReceivedMultipart> {
  const upload: InFlight = { writes: [] };
  inFlight.set(req, upload);
  const parse = multer({
    storage: inspectingStorage(storage, rules.maxFileBytes),
    defParamCharset: 'utf8', // browsers send file names as raw UTF-8
    limits: {
      files: rules.maxFiles,
      fields: rules.maxFields,
      fieldSize: rules.maxFieldBytes,
      parts: rules.maxFiles + rules.maxFields,
      fieldNameSize: 100,
    },
    fileFilter: (_req, file, accept) =>
      file.fieldname === 'file' ? accept(null, true) : accept(new MulterError('LIMIT_UNEXPECTED_FILE', file.fieldname)),
  }).any();

  return new Promise<ReceivedMultipart>((resolve, reject) => {
    let settled = false;
    const refuse = async (error: unknown) => {
      if (settled) return;
      settled = true;
      const written = await Promise.all(upload.writes);
      await Promise.all(written.map((file) => file && storage.discard(file.temporaryId).catch(() => undefined)));
      reject(problemFor(error, rules));
    };
    // Multer would read the rest of the body before reporting the refusal; the answer goes now instead.
    upload.overCap = () => {
      req.unpipe();
      void refuse(new FileTooLargeError(rules.maxFileBytes));
    };
    parse(req, res, (error?: unknown) => {
      if (error) return void refuse(error);
      if (settled) return;
      settled = true;
      const files = (req.files as unknown as UploadedFile[] | undefined) ?? [];
      resolve({ files, fields: { ...(req.body as Record<string, string | string[]>) } });
    });
  });
}
