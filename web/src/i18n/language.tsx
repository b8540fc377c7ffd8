import { createContext, useContext, useMemo, useState, type ReactNode } from 'react';
import { translate, type Language, type MessageKey } from './messages';

interface LanguageContextValue {
  language: Language;
  setLanguage(language: Language): void;
  t(key: MessageKey, values?: Record<string, string | number>): string;
}

const LanguageContext = createContext<LanguageContextValue | null>(null);

export function LanguageProvider({ initial, children }: { initial: Language; children: ReactNode }) {
  const [language, setLanguage] = useState<Language>(initial);
  const value = useMemo(
    () => ({ language, setLanguage, t: (key: MessageKey, values?: Record<string, string | number>) => translate(language, key, values) }),
    [language],
  );
  return <LanguageContext.Provider value={value}>{children}</LanguageContext.Provider>;
}

export function useLanguage(): LanguageContextValue {
  const value = useContext(LanguageContext);
  if (!value) throw new Error('useLanguage needs a LanguageProvider');
  return value;
}
