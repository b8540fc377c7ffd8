// oidc-provider ships no TypeScript declarations; the test provider types the parts it uses itself.
declare module 'oidc-provider';
