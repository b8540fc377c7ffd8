import { useQuery } from '@tanstack/react-query';
import { formatPhone } from '../i18n/format';
import { useLanguage } from '../i18n/language';

/** The insurer the claimant deals with, as the gateway serves it from its BRAND_* configuration. */
export interface Brand {
  name: string;
  logo_url: string | null;
  primary_color: string;
  contact: { phone: string; email: string };
}

async function fetchBrand(): Promise<Brand> {
  const response = await fetch('/brand.json');
  if (!response.ok) throw new Error(`brand.json answered ${response.status}`);
  return (await response.json()) as Brand;
}

/** The insurer, once loaded (undefined before; the colour itself comes with /brand.css in index.html). */
export function useBrand(): Brand | undefined {
  return useQuery({ queryKey: ['brand'], queryFn: fetchBrand, staleTime: Infinity, retry: 2 }).data;
}

/** The insurer's name, logo and contact, at the top of every claimant page. */
export function BrandBar() {
  const brand = useBrand();
  const { t } = useLanguage();
  if (!brand) return null;
  return (
    <div className="brand-bar">
      <p className="brand-name">
        {brand.logo_url && <img src={brand.logo_url} alt="" className="brand-logo" />}
        {brand.name}
      </p>
      <p className="brand-contact">
        {t('brandContact')} <a href={`tel:${brand.contact.phone}`}>{formatPhone(brand.contact.phone)}</a> ·{' '}
        <a href={`mailto:${brand.contact.email}`}>{brand.contact.email}</a>
      </p>
    </div>
  );
}
