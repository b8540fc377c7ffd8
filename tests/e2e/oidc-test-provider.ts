/**
 * A real OpenID provider (oidc-provider) for the workbench journey, run as its own process like the
 * platform's: `node --import tsx tests/e2e/oidc-test-provider.ts` with PORT, REDIRECT_URI and RESOURCE.
 * One public client, `workbench` (authorization code with PKCE, no secret); any login with any password
 * (oidc-provider's development interaction pages); JWT access tokens for RESOURCE, RS256 from /jwks, whose
 * `scope` is what the account's role grants: `lead-*` accounts may also decide (claims:decide); `preparer-*` collect
 * evidence (evidence:write), `approver-*` decide runs and read the audit log (evidence:approve audit:read);
 * `privacy-*` officers read claims and manage personal data (claims:read privacy:manage), which no other role gets.
 * Prints `ready <issuer>` once listening.
 */
const ADJUSTER_SCOPES = ['claims:read', 'claims:write'];
const LEAD_SCOPES = [...ADJUSTER_SCOPES, 'claims:decide'];
/** The examiner desk's people: a preparer collects evidence; an approver decides runs and reads the audit log. */
const PREPARER_SCOPES = ['evidence:write'];
const APPROVER_SCOPES = ['evidence:approve', 'audit:read'];
/** A privacy officer finds a claimant from their claims, exports, holds and erases their personal data. */
const PRIVACY_OFFICER_SCOPES = ['claims:read', 'privacy:manage'];
const ALL_SCOPES = [...LEAD_SCOPES, ...PREPARER_SCOPES, ...APPROVER_SCOPES, 'privacy:manage'];

/** The little of oidc-provider's context the grant below reads (the package ships no types). */
interface GrantContext {
  oidc: {
    session?: { accountId?: string };
    client?: { clientId: string };
    provider: {
      Grant: new (init: { clientId: string; accountId: string }) => {
        addOIDCScope(scope: string): void;
        addResourceScope(resource: string, scope: string): void;
        save(): Promise<string>;
      };
    };
  };
}

export const scopesOf = (accountId: string) =>
  accountId.startsWith('lead-')
    ? LEAD_SCOPES
    : accountId.startsWith('preparer-')
      ? PREPARER_SCOPES
      : accountId.startsWith('approver-')
        ? APPROVER_SCOPES
        : accountId.startsWith('privacy-')
          ? PRIVACY_OFFICER_SCOPES
          : ADJUSTER_SCOPES;

async function main() {
  const { default: Provider, interactionPolicy } = await import('oidc-provider');
  const port = Number(process.env.PORT);
  const resource = process.env.RESOURCE!;
  const issuer = `http://127.0.0.1:${port}`;
  // No consent screen: what an account may do is its role's grant, made below.
  const policy = interactionPolicy.base();
  policy.remove('consent');
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: 'workbench',
        token_endpoint_auth_method: 'none',
        redirect_uris: [process.env.REDIRECT_URI!],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    interactions: { policy },
    pkce: { required: () => true },
    findAccount: (_ctx: unknown, sub: string) => ({ accountId: sub, claims: () => ({ sub }) }),
    loadExistingGrant: async (ctx: GrantContext) => {
      const accountId = ctx.oidc.session!.accountId!;
      const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client!.clientId, accountId });
      grant.addOIDCScope('openid');
      grant.addResourceScope(resource, scopesOf(accountId).join(' '));
      await grant.save();
      return grant;
    },
    features: {
      devInteractions: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => resource,
        useGrantedResource: () => true,
        getResourceServerInfo: () => ({
          scope: ALL_SCOPES.join(' '),
          audience: resource,
          accessTokenFormat: 'jwt',
          accessTokenTTL: 3600,
          jwt: { sign: { alg: 'RS256' } },
        }),
      },
    },
  });
  provider.listen(port, '127.0.0.1', () => console.log(`ready ${issuer}`));
}

if (require.main === module) void main();
