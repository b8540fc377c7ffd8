import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { formatAmount, formatDate, formatMoney, formatNumber, formatPhone } from './format';
import { LANGUAGE_STORAGE_KEY, LanguageProvider, useLanguage } from './language';
import { documentTypeName } from './messages';

describe('portal formatting', () => {
  it('writes a calendar date as that day in the language, whatever the time zone', () => {
    expect(formatDate('es', '2026-11-20')).toBe('20 de noviembre de 2026');
    expect(formatDate('en', '2026-11-20')).toBe('November 20, 2026');
  });

  it('writes a moment as day and time in the language', () => {
    const text = formatDate('es', '2026-11-20T09:30:00Z');
    expect(text).toMatch(/de noviembre de 2026/);
    expect(text).toMatch(/\d{1,2}:30/);
  });

  it('writes numbers and money the language’s way', () => {
    expect(formatNumber('es', 12345.5)).toBe('12.345,5');
    expect(formatNumber('en', 12345.5)).toBe('12,345.5');
    // A decimal string is formatted exactly: as a float this amount would read 100,000,000,000,000.00.
    expect(formatAmount('en', { amount: '99999999999999.99', currency: 'USD' })).toBe('$99,999,999,999,999.99');
    expect(formatMoney('es', 123450, 'EUR')).toMatch(/^1234,50\s€$|^1\.234,50\s€$/);
  });

  it('groups an E.164 phone number for reading and leaves anything else alone', () => {
    expect(formatPhone('+34600123456')).toBe('+34 600 123 456');
    expect(formatPhone('+14155550100')).toBe('+1 415 555 0100');
    expect(formatPhone('call the office')).toBe('call the office');
  });

  it('names document types in Spanish, and falls back to the words of the type', () => {
    expect(documentTypeName('es', 'police_report')).toBe('denuncia policial');
    expect(documentTypeName('en', 'police_report')).toBe('police report');
    expect(documentTypeName('es', 'something_new')).toBe('something new');
  });
});

function Probe() {
  const { language, setLanguage, t } = useLanguage();
  return (
    <>
      <p>{t('language')}</p>
      <button onClick={() => setLanguage(language === 'en' ? 'es' : 'en')}>switch</button>
    </>
  );
}

describe('the language choice', () => {
  afterEach(() => window.localStorage.clear());

  it('starts from the claim’s language when the claimant chose none', () => {
    render(
      <LanguageProvider initial="es">
        <Probe />
      </LanguageProvider>,
    );
    expect(screen.getByText('Idioma')).toBeTruthy();
  });

  it('survives a reload: a chosen language is kept and wins over the initial one', () => {
    const first = render(
      <LanguageProvider initial="en">
        <Probe />
      </LanguageProvider>,
    );
    act(() => screen.getByRole('button', { name: 'switch' }).click());
    expect(window.localStorage.getItem(LANGUAGE_STORAGE_KEY)).toBe('es');
    first.unmount();
    render(
      <LanguageProvider initial="en">
        <Probe />
      </LanguageProvider>,
    );
    expect(screen.getByText('Idioma')).toBeTruthy();
  });

  it('ignores a stored value that is not a language', () => {
    window.localStorage.setItem(LANGUAGE_STORAGE_KEY, 'klingon');
    render(
      <LanguageProvider initial="en">
        <Probe />
      </LanguageProvider>,
    );
    expect(screen.getByText('Language')).toBeTruthy();
  });
});
