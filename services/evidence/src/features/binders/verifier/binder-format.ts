/**
 * The parts of a binder's manifest that prove its audit records (format claims-platform/evidence-binder/2),
 * shared by the code that writes binders and the offline verifier.
 */

/** The inclusion of one cited audit record in the binder's checkpoint. */
export interface AuditRecordProof {
  seq: number;
  /** The record's canonical bytes (UTF-8 RFC 8785 JSON of every field but `hash`): its Merkle leaf, as stored at append. */
  leaf: string;
  /** RFC 9162 inclusion proof of leaf seq - 1 in the tree of the checkpoint's size, base64 hashes. */
  inclusion_proof: string[];
}

/** The binder's checkpoint against the largest smaller one of an earlier binder of the same control: the log only grew in between. */
export interface AuditConsistency {
  /** The earlier binder's checkpoint note. */
  note: string;
  /** RFC 9162 consistency proof from the earlier tree to the binder's, base64 hashes. */
  proof: string[];
}

export const BINDER_FORMAT = 'claims-platform/evidence-binder/2';
