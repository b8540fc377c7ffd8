import { useQuery } from '@tanstack/react-query';
import { completeSignIn, fetchSignInConfig, type SignInConfig } from './oidc';
import { saveSession } from './session';

/** The query keys of signing in to the workbench (the OpenID provider's configuration and the code exchange). */
export const signInKeys = {
  config: () => ['workbench-sign-in-config'] as const,
  callback: (search: string) => ['workbench-sign-in-callback', search] as const,
};

export function useSignInConfig() {
  return useQuery({ queryKey: signInKeys.config(), queryFn: fetchSignInConfig, staleTime: Infinity });
}

/** Exchanges the code the provider sent back (once the configuration is known), keeps the session, then `onSignedIn`. */
export function useSignInCompletion(config: SignInConfig | undefined, onSignedIn: (returnTo: string) => void) {
  return useQuery({
    queryKey: signInKeys.callback(window.location.search),
    enabled: Boolean(config),
    retry: false,
    staleTime: Infinity,
    queryFn: async () => {
      const { accessToken, returnTo } = await completeSignIn(config!, window.location.search);
      saveSession(accessToken);
      onSignedIn(returnTo);
      return true;
    },
  });
}
