/**
 * The claimant's access token arrives in the URL fragment (`#token=…`), which browsers never send to a
 * server nor put in a Referer. It is kept in sessionStorage for this tab, per claim, and the fragment is
 * removed from the address bar at once so it is not bookmarked, shared or left in the history.
 */
const storageKey = (claimId: string) => `claim-access:${claimId}`;

export function takeAccessToken(claimId: string, location: Location = window.location, history: History = window.history): string | null {
  const fragment = new URLSearchParams(location.hash.replace(/^#/, ''));
  const fromLink = fragment.get('token');
  if (fromLink) {
    sessionStorage.setItem(storageKey(claimId), fromLink);
    fragment.delete('token');
    const rest = fragment.toString();
    history.replaceState(history.state, '', `${location.pathname}${location.search}${rest ? `#${rest}` : ''}`);
  }
  return sessionStorage.getItem(storageKey(claimId));
}

export function forgetAccessToken(claimId: string): void {
  sessionStorage.removeItem(storageKey(claimId));
}

/** A token the page was handed directly (the claim the claimant just reported): kept like a link's, never in a URL. */
export function keepAccessToken(claimId: string, token: string): void {
  sessionStorage.setItem(storageKey(claimId), token);
}
