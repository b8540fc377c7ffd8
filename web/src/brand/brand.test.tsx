import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LanguageProvider } from '../i18n/language';
import { BrandBar } from './brand';

const BRAND = {
  name: 'Aseguradora Sol',
  logo_url: '/brand/logo.svg',
  primary_color: '#1d4f91',
  contact: { phone: '+34900123456', email: 'siniestros@sol.example' },
};

describe('BrandBar', () => {
  afterEach(() => vi.unstubAllGlobals());

  it("shows the insurer's name, logo and contact from /brand.json, in the claimant's language", async () => {
    const fetchMock = vi.fn(async () => new Response(JSON.stringify(BRAND), { headers: { 'content-type': 'application/json' } }));
    vi.stubGlobal('fetch', fetchMock);
    const { container } = render(
      <QueryClientProvider client={new QueryClient()}>
        <LanguageProvider initial="es">
          <BrandBar />
        </LanguageProvider>
      </QueryClientProvider>,
    );
    expect(await screen.findByText('Aseguradora Sol')).toBeTruthy();
    expect(fetchMock).toHaveBeenCalledWith('/brand.json');
    expect(container.querySelector('img.brand-logo')?.getAttribute('src')).toBe('/brand/logo.svg');
    expect(screen.getByRole('link', { name: '+34 900 123 456' })).toHaveAttribute('href', 'tel:+34900123456');
    expect(screen.getByRole('link', { name: 'siniestros@sol.example' })).toHaveAttribute('href', 'mailto:siniestros@sol.example');
    expect(screen.getByText(/Línea de siniestros:/)).toBeTruthy();
  });
});
