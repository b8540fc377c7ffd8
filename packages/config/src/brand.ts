import type { ConfigRule } from './index';

// Spelled out rather than made with `variable` (index.ts re-exports this file, so it may not import values from it).
const text = (description: string, def: string) => ({ kind: 'string' as const, description, default: def });

/**
 * The insurer the claimant sees: on every portal page (the gateway serves it as /brand.json and /brand.css)
 * and in every message the claims service sends. The defaults are a neutral demonstration insurer, so
 * `pnpm start` shows a whole page.
 */
export const brandVariables = {
  BRAND_NAME: text('Name of the insurer, on every claimant page (and its title) and message', 'Example Mutual'),
  BRAND_LOGO_URL: text(
    "The insurer's logo on claimant pages: a path on the gateway or a data: URL (the pages' Content-Security-Policy loads images from the gateway only); empty for none",
    '',
  ),
  BRAND_PRIMARY_COLOR: text(
    "The insurer's colour (#rrggbb): the portal's header and buttons, with white text on it, so it must keep 4.5:1 contrast with white (WCAG AA)",
    '#1d4f91',
  ),
  BRAND_CONTACT_PHONE: text("The insurer's claims phone number (E.164), on every claimant page and message", '+18005550100'),
  BRAND_CONTACT_EMAIL: text("The insurer's claims email address, on every claimant page and message", 'claims@example.com'),
};

const HEX_COLOR = /^#[0-9a-fA-F]{6}$/;

/** WCAG 2 contrast ratio of two #rrggbb colours (1 to 21). */
export function contrastRatio(first: string, second: string): number {
  const luminance = (hex: string) => {
    const [r, g, b] = [1, 3, 5].map((at) => {
      const channel = parseInt(hex.slice(at, at + 2), 16) / 255;
      return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [lighter, darker] = [luminance(first), luminance(second)].sort((a, b) => b - a);
  return (lighter + 0.05) / (darker + 0.05);
}

type BrandConfig = { BRAND_PRIMARY_COLOR: string; BRAND_LOGO_URL: string; BRAND_CONTACT_PHONE: string };

export const brandConfigRules: ConfigRule<BrandConfig>[] = [
  ({ BRAND_PRIMARY_COLOR: color }) => {
    if (!HEX_COLOR.test(color)) return `BRAND_PRIMARY_COLOR must be a colour as #rrggbb, got "${color}"`;
    const ratio = contrastRatio(color, '#ffffff');
    return ratio < 4.5 && `BRAND_PRIMARY_COLOR ${color} has ${ratio.toFixed(2)}:1 contrast with white text; WCAG AA needs 4.5:1`;
  },
  ({ BRAND_LOGO_URL: logo }) =>
    logo !== '' &&
    !/^\/[^/]/.test(logo) &&
    !logo.startsWith('data:image/') &&
    `BRAND_LOGO_URL must be a path on the gateway (/…) or a data:image/ URL, got "${logo.slice(0, 60)}"`,
  ({ BRAND_CONTACT_PHONE: phone }) => !/^\+[1-9]\d{6,14}$/.test(phone) && `BRAND_CONTACT_PHONE must be an E.164 number, got "${phone}"`,
];

/** What a claimant page shows of the insurer (GET /brand.json). */
export function publicBrand(config: BrandConfig & { BRAND_NAME: string; BRAND_CONTACT_EMAIL: string }) {
  return {
    name: config.BRAND_NAME,
    logo_url: config.BRAND_LOGO_URL || null,
    primary_color: config.BRAND_PRIMARY_COLOR,
    contact: { phone: config.BRAND_CONTACT_PHONE, email: config.BRAND_CONTACT_EMAIL },
  };
}
