import { formatPhone } from '../i18n/format';
import { useLanguage } from '../i18n/language';
import { useBrand } from './brand-api';

export { useBrand, type Brand } from './brand-api';

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
