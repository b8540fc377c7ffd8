/** Where the evidence service serves a binder's zip and an evidence item's content. */
export const binderZipUrl = (binderId: string) => `/api/evidence/binder-archives/${encodeURIComponent(binderId)}`;
export const binderFileName = (binderId: string) => `binder-${binderId}.zip`;
export const evidenceContentUrl = (evidenceId: string) => `/api/evidence/evidence/${encodeURIComponent(evidenceId)}/content`;
