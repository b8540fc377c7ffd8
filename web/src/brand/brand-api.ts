import { useQuery } from '@tanstack/react-query';

/** The one query key of the brand read (the gateway's /brand.json, not an API operation). */
export const brandKeys = { brand: () => ['brand'] as const };

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
  return useQuery({ queryKey: brandKeys.brand(), queryFn: fetchBrand, staleTime: Infinity, retry: 2 }).data;
}
