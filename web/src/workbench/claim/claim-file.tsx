import type { components } from '../../api/client';

export type ClaimFile = components['schemas']['GetClaimResponse'];

/**
 * The link the platform already sent the claimant (intake's acknowledgement) and the latest contact: the API takes
 * the link back whatever its scheme, being on the platform's own PUBLIC_BASE_URL (CONTRACT §3), so a development
 * platform's http link is kept.
 */
export function composerStart(file: ClaimFile) {
  const portalUrl = file.status_updates.find((update) => update.portal_url)?.portal_url ?? '';
  const contact = [...file.status_updates].reverse().find((update) => update.contact)?.contact ?? null;
  return { portalUrl, contact };
}

export function ErrorAlert({ error }: { error: Error | null }) {
  return error ? (
    <p className="error" role="alert">
      {error.message}
    </p>
  ) : null;
}
