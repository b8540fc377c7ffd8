import type { Readable } from 'node:stream';

/**
 * Where uploaded files live: content-addressed (a file is stored under the SHA-256 of its bytes) once
 * placed, and before that a temporary object no reader looks at. Services reach user files only through
 * this interface, so the local directory and S3 are interchangeable.
 */
export interface FileStorage {
  /** Streams `source` to a new temporary object and returns its id; on failure nothing is left behind. */
  writeTemporary(source: Readable): Promise<string>;
  /**
   * Makes a complete temporary object visible at its content address. `created` is false when those
   * bytes were already stored; the temporary object is gone either way.
   */
  place(temporaryId: string, sha256: string): Promise<{ created: boolean }>;
  /** Removes a temporary object (nothing happens when it is already gone). */
  discard(temporaryId: string): Promise<void>;
  openTemporary(temporaryId: string): Promise<Readable>;
  open(sha256: string): Promise<Readable>;
  has(sha256: string): Promise<boolean>;
  remove(sha256: string): Promise<void>;
  /** Every object, stored and temporary, by its name relative to this storage (for checks and operators). */
  list(): Promise<string[]>;
  /** Removes temporary objects a killed process left behind; returns how many. */
  removeAbandoned(): Promise<number>;
}

export function assertSha256(sha256: string): void {
  if (!/^[0-9a-f]{64}$/.test(sha256)) throw new Error(`not a SHA-256 hex digest: ${sha256.slice(0, 80)}`);
}

export function isTemporaryId(id: string): boolean {
  return /^[0-9a-f-]{36}$/.test(id);
}
