import { useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { beginSignIn, developmentSignIn } from './oidc';
import { RequestFailed } from './RequestFailed';
import { saveSession } from './session';
import { useSignInCompletion, useSignInConfig } from './sign-in-api';
import { usePageTitle } from './WorkbenchSession';

/** Only paths inside the workbench: a crafted return_to must not send the person elsewhere. */
function safeReturnTo(value: string | null): string {
  return value && /^\/workbench(\/|$|\?)/.test(value) ? value : '/workbench';
}

/** /workbench/sign-in — through the organisation's OpenID provider; in development also a development sign-in. */
export function SignInPage() {
  usePageTitle('Sign in');
  const [params] = useSearchParams();
  const returnTo = safeReturnTo(params.get('return_to'));
  const config = useSignInConfig();
  const [error, setError] = useState<string | null>(null);
  return (
    <main className="workbench">
      <h1>Sign in to the workbench</h1>
      {config.isPending && <p role="status">Loading…</p>}
      {config.error && <RequestFailed what="The sign-in settings" error={config.error} onRetry={() => void config.refetch()} />}
      {config.data?.issuer && (
        <button type="button" onClick={() => beginSignIn(config.data, returnTo).catch((e: Error) => setError(e.message))}>
          Sign in with your organisation
        </button>
      )}
      {config.data && !config.data.issuer && !config.data.development_sign_in && (
        <p className="error">No sign-in provider is configured (AUTH_ISSUER).</p>
      )}
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {config.data?.development_sign_in && <DevelopmentSignIn returnTo={returnTo} scopes={config.data.scopes} />}
    </main>
  );
}

/** Offers the scopes a real sign-in asks for (config.json's, without `openid`), so development works with what production gives. */
export function DevelopmentSignIn({ returnTo, scopes }: { returnTo: string; scopes: string }) {
  const offered = scopes.split(' ').filter((scope) => scope !== '' && scope !== 'openid');
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    try {
      saveSession(await developmentSignIn(String(form.get('sub')), form.getAll('scope').join(' ')));
      navigate(returnTo, { replace: true });
    } catch (e) {
      setError((e as Error).message);
    }
  };
  return (
    <section aria-labelledby="dev-sign-in">
      <h2 id="dev-sign-in">Development sign-in</h2>
      <p className="notice">Only outside production: a token signed with the development secret.</p>
      <form onSubmit={onSubmit}>
        <label htmlFor="dev-sub">User</label>
        <input id="dev-sub" name="sub" defaultValue="adjuster-dev" required pattern="[A-Za-z0-9._@\-]+" />
        <fieldset>
          <legend>Scopes</legend>
          {offered.map((scope) => (
            <label key={scope} className="checkbox">
              <input type="checkbox" name="scope" value={scope} defaultChecked={scope.startsWith('claims:')} /> {scope}
            </label>
          ))}
        </fieldset>
        <button type="submit">Sign in for development</button>
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
      </form>
    </section>
  );
}

/** /workbench/callback — where the OpenID provider sends the person back with a code. */
export function SignInCallbackPage() {
  usePageTitle('Signing in');
  const navigate = useNavigate();
  const config = useSignInConfig();
  const completion = useSignInCompletion(config.data, (returnTo) => navigate(safeReturnTo(returnTo), { replace: true }));
  const failure = config.error ?? completion.error;
  return (
    <main className="workbench">
      <h1>Signing in</h1>
      {failure ? (
        <p className="error" role="alert">
          {failure.message} <a href="/workbench/sign-in">Try again</a>
        </p>
      ) : (
        <p role="status">Completing the sign-in…</p>
      )}
    </main>
  );
}
