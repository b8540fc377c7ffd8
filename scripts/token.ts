/** `pnpm token --sub alice --scope "claims:read claims:write" [--expires 1h]`: prints a development JWT. */
import { parseArgs } from 'node:util';
import { signDevToken } from '@platform/auth';

const { values } = parseArgs({
  options: {
    sub: { type: 'string', default: 'developer' },
    scope: { type: 'string', default: 'claims:read claims:write' },
    expires: { type: 'string', default: '8h' },
  },
});

if (process.env.NODE_ENV === 'production') {
  console.error('pnpm token signs development tokens only; production tokens come from the identity provider');
  process.exit(1);
}

signDevToken({ sub: values.sub!, scope: values.scope!, expiresIn: values.expires, secret: process.env.AUTH_JWT_SECRET }).then((token) =>
  console.log(token),
);
