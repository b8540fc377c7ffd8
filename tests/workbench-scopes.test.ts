import { readGatewayConfig } from '../gateway/src/config';
import { platformDocuments } from '../scripts/api-documents';
import { scopesOf } from './e2e/oidc-test-provider';

type Document = { paths: Record<string, Record<string, { security?: Record<string, string[]>[] }>> };

/** Every scope some operation of the served document requires, read from its security requirements. */
function scopesTheOperationsCheck(document: Document): Set<string> {
  const operations = Object.values(document.paths).flatMap((item) => Object.values(item));
  return new Set(operations.flatMap((operation) => (operation.security ?? []).flatMap((requirement) => Object.values(requirement).flat())));
}

describe('the scopes a sign-in to the pages asks for', () => {
  it('are each checked by an operation of the platform, and hold every scope a person needs there (audit:read for the examiner desk), but not a witness’s', async () => {
    const { platform } = await platformDocuments();
    const checked = scopesTheOperationsCheck(platform as Document);
    const asked = readGatewayConfig({})
      .WORKBENCH_OIDC_SCOPES.split(' ')
      .filter((scope) => scope !== 'openid');
    expect(asked.filter((scope) => !checked.has(scope))).toEqual([]);
    expect([...checked].filter((scope) => !asked.includes(scope))).toEqual(['audit:witness']);
  });
});

describe("the test OpenID provider's roles", () => {
  it('grant privacy:manage to a privacy officer only, never to an adjuster, a lead or the examiner desk’s people', () => {
    expect(scopesOf('privacy-pia')).toEqual(['claims:read', 'privacy:manage']);
    for (const account of ['adjuster-ana', 'lead-bo', 'preparer-cy', 'approver-di', 'privacy'])
      expect(scopesOf(account)).not.toContain('privacy:manage');
  });
});
