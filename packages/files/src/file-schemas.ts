import { SCAN_STATUSES } from './virus-scanner';

/** A stored file's SHA-256 as lowercase hex, its content address (JSON Schema). */
export const sha256Schema = { type: 'string', pattern: '^[0-9a-f]{64}$' } as const;

/** A stored file's size in bytes (JSON Schema); an empty file is 0. */
export const sizeBytesSchema = { type: 'integer', minimum: 0 } as const;

/** Where a stored file stands with the virus scanner (JSON Schema); each service describes what the status means there. */
export const scanStatusSchema = { enum: [...SCAN_STATUSES] } as const;
