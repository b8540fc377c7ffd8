import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { LANGUAGES, translate, type Language, type MessageKey } from './messages';

interface LanguageContextValue {
  language: Language;
  setLanguage(language: Language): void;
  t(key: MessageKey, values?: Record<string, string | number>): string;
}

const LanguageContext = createContext<LanguageContextValue | null>(null);

/** Where the claimant's own choice of language is kept (a preference, nothing secret), so a reload keeps it. */
export const LANGUAGE_STORAGE_KEY = 'portal.language';

function chosenLanguage(): Language | null {
  try {
    const stored = window.localStorage.getItem(LANGUAGE_STORAGE_KEY);
    return stored && stored in LANGUAGES ? (stored as Language) : null;
  } catch {
    return null; // storage refused (private mode, blocked): the choice lasts for the page only
  }
}

/** The claimant's chosen language if they chose one, else `initial` (the claim's or the browser's). */
export function LanguageProvider({ initial, children }: { initial: Language; children: ReactNode }) {
  const [language, setLanguageState] = useState<Language>(() => chosenLanguage() ?? initial);
  const setLanguage = useCallback((next: Language) => {
    setLanguageState(next);
    try {
      window.localStorage.setItem(LANGUAGE_STORAGE_KEY, next);
    } catch {
      // as above: not kept across a reload
    }
  }, []);
  const value = useMemo(
    () => ({
      language,
      setLanguage,
      t: (key: MessageKey, values?: Record<string, string | number>) => translate(language, key, values),
    }),
    [language, setLanguage],
  );
  return <LanguageContext.Provider value={value}>{children}</LanguageContext.Provider>;
}

export function useLanguage(): LanguageContextValue {
  const value = useContext(LanguageContext);
  if (!value) throw new Error('useLanguage needs a LanguageProvider');
  return value;
}
