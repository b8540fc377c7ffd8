import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { AttachmentsSection } from './AttachmentsSection';
import type { ClaimFile } from './claim-file';

const session = { accessToken: 'token-1', sub: 'adjuster-ann', scopes: ['claims:read'], expiresAt: Date.now() + 3_600_000 };
const file = {
  claim: { claim_id: '3f0e6c1a-8d2b-4c55-9a71-0b6f1f2d9e41' },
  attachments: [
    {
      attachment_id: '0b1c2d3e-4f50-4617-8293-a4b5c6d7e8f9',
      filename: 'knee.png',
      content_type: 'image/png',
      document_type: 'photos_of_damage',
      scan_status: 'clean',
    },
  ],
} as unknown as ClaimFile;

describe("a claim's attachments", () => {
  afterEach(() => vi.unstubAllGlobals());
  // jsdom has no object URLs
  beforeAll(() => {
    Object.assign(URL, { createObjectURL: () => 'blob:preview', revokeObjectURL: () => {} });
  });

  function recordingFetch() {
    const calls: { url: string; headers: Record<string, string> }[] = [];
    vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
      calls.push({ url, headers: init.headers as Record<string, string> });
      return new Response(new Blob([new Uint8Array([137, 80, 78, 71])], { type: 'image/png' }), { status: 200 });
    });
    return calls;
  }

  it('are read with the purpose given for the claim (a sensitive claim’s bytes are refused without one)', async () => {
    const calls = recordingFetch();
    render(<AttachmentsSection file={file} session={session} purpose="Reviewing the medical report" />);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Preview knee.png' }));
    await screen.findByRole('img', { name: 'Preview of knee.png' });
    expect(calls).toEqual([
      {
        url: `/api/claims/claims/${file.claim.claim_id}/attachments/${file.attachments[0]!.attachment_id}/content`,
        headers: { Authorization: 'Bearer token-1', 'Access-Purpose': 'Reviewing the medical report' },
      },
    ]);
  });

  it('are read without the header when no purpose was asked', async () => {
    const calls = recordingFetch();
    render(<AttachmentsSection file={file} session={session} purpose={null} />);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Preview knee.png' }));
    await screen.findByRole('img', { name: 'Preview of knee.png' });
    expect(calls.map((call) => call.headers)).toEqual([{ Authorization: 'Bearer token-1' }]);
  });
});
