import { useId } from 'react';
import { useLanguage } from './language';
import { LANGUAGES, type Language } from './messages';

export function LanguageSwitch() {
  const { t, language, setLanguage } = useLanguage();
  const id = useId();
  return (
    <div className="language-switch">
      <label htmlFor={id}>{t('language')}</label>
      <select id={id} value={language} onChange={(event) => setLanguage(event.target.value as Language)}>
        {Object.entries(LANGUAGES).map(([code, { name }]) => (
          <option key={code} value={code} lang={code}>
            {name}
          </option>
        ))}
      </select>
    </div>
  );
}
