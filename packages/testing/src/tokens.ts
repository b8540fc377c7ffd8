import { signDevToken } from '@platform/auth';

export const TEST_JWT_SECRET = 'test-secret-for-integration-tests-only-0123456789';

/** A bearer header for an internal caller with the given scopes. */
export async function bearer(
  scope: string,
  sub = 'tester',
  options: { secret?: string; expiresIn?: string | number } = {},
): Promise<string> {
  return `Bearer ${await signDevToken({ sub, scope, secret: options.secret ?? TEST_JWT_SECRET, expiresIn: options.expiresIn })}`;
}

export async function eventually<T>(probe: () => Promise<T | undefined | false>, timeoutMs = 10000, intervalMs = 50): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
