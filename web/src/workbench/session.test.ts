import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  currentSession,
  requestSessionFromOtherTabs,
  saveSession,
  sessionFromToken,
  shareSessionWithOtherTabs,
  signOutEverywhere,
} from './session';

/** An unsigned token with this payload: the page only reads it (the services verify it). */
const token = (payload: Record<string, unknown>) =>
  ['e30', btoa(JSON.stringify(payload)).replace(/=+$/, ''), 'sig'].join('.').replace(/\+/g, '-').replace(/\//g, '_');
const inAnHour = () => Math.floor(Date.now() / 1000) + 3600;

/**
 * Another tab: its own session (jsdom has one sessionStorage, so the other tab's token is held here) on the
 * same BroadcastChannel, as two tabs of one origin have.
 */
function otherTab(accessToken: string | null) {
  let held = accessToken;
  const stop = shareSessionWithOtherTabs(
    () => {
      held = null;
    },
    () => (held === null ? null : sessionFromToken(held)),
  );
  return { held: () => held, stop };
}

describe('the workbench session across tabs', () => {
  const cleanups: (() => void)[] = [];
  afterEach(() => {
    cleanups.splice(0).forEach((cleanup) => cleanup());
    vi.restoreAllMocks();
  });

  it('hands a signed-in tab’s session to a new tab that asks, into the new tab’s own storage, never into localStorage or the URL', async () => {
    const signedIn = token({ sub: 'ada', scope: 'claims:read claims:write', exp: inAnHour() });
    cleanups.push(otherTab(signedIn).stop);
    // this tab, the new one, starts empty
    expect(currentSession()).toBeNull();

    const handed = await requestSessionFromOtherTabs(1000);
    expect(handed).toMatchObject({ sub: 'ada', scopes: ['claims:read', 'claims:write'] });
    expect(currentSession()?.accessToken).toBe(signedIn);
    expect(JSON.stringify({ ...localStorage })).not.toContain(signedIn);
    expect(window.location.href).not.toContain(signedIn);
  });

  it('gives up after the wait when no tab holds a session, and does not hand over an expired one', async () => {
    expect(await requestSessionFromOtherTabs(50)).toBeNull();

    cleanups.push(otherTab(token({ sub: 'old', scope: 'claims:read', exp: Math.floor(Date.now() / 1000) - 10 })).stop);
    expect(await requestSessionFromOtherTabs(100)).toBeNull();
    expect(currentSession()).toBeNull();
  });

  it('signs every tab out when one signs out', async () => {
    const elsewhere = otherTab(token({ sub: 'ada', scope: 'claims:read', exp: inAnHour() }));
    cleanups.push(elsewhere.stop);
    saveSession(token({ sub: 'ada', scope: 'claims:read', exp: inAnHour() }));

    signOutEverywhere();
    expect(currentSession()).toBeNull();
    await vi.waitFor(() => expect(elsewhere.held()).toBeNull());
  });
});
