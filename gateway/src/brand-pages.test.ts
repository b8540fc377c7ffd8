import request from 'supertest';
import { ConfigError } from '@platform/config';
import { TEST_JWT_SECRET } from '@platform/testing';
import { readGatewayConfig } from './config';
import { createGateway } from './gateway';
import { PAGES_CONTENT_SECURITY_POLICY } from './web-pages';

const BRAND_ENV = {
  BRAND_NAME: 'Aseguradora Sol',
  BRAND_LOGO_URL: '/brand/logo.svg',
  BRAND_PRIMARY_COLOR: '#7a1f1f',
  BRAND_CONTACT_PHONE: '+34900123456',
  BRAND_CONTACT_EMAIL: 'siniestros@sol.example',
};

describe("the insurer's face (BRAND_*) at the gateway", () => {
  it('serves the configured brand as /brand.json and its colour as a stylesheet of custom properties, under the pages policy', async () => {
    const { app } = createGateway(readGatewayConfig({ AUTH_JWT_SECRET: TEST_JWT_SECRET, ...BRAND_ENV }));
    const json = await request(app).get('/brand.json').expect(200);
    expect(json.body).toEqual({
      name: 'Aseguradora Sol',
      logo_url: '/brand/logo.svg',
      primary_color: '#7a1f1f',
      contact: { phone: '+34900123456', email: 'siniestros@sol.example' },
    });
    const css = await request(app).get('/brand.css').expect(200);
    expect(css.headers['content-type']).toMatch(/^text\/css/);
    expect(css.text).toBe(':root { --brand-primary: #7a1f1f; }\n');
    expect(css.headers['content-security-policy']).toBe(PAGES_CONTENT_SECURITY_POLICY);
  });

  it('has defaults, so pnpm start shows a whole page', async () => {
    const { app } = createGateway(readGatewayConfig({ AUTH_JWT_SECRET: TEST_JWT_SECRET }));
    const json = await request(app).get('/brand.json').expect(200);
    expect(json.body.name).toBe('Example Mutual');
    expect(json.body.logo_url).toBeNull();
  });

  it('refuses a colour white text cannot be read on (WCAG AA 4.5:1), a logo the pages may not load, and a malformed phone', () => {
    const read = (env: Record<string, string>) => () => readGatewayConfig({ AUTH_JWT_SECRET: TEST_JWT_SECRET, ...env });
    expect(read({ BRAND_PRIMARY_COLOR: '#ffcc00' })).toThrow(/BRAND_PRIMARY_COLOR #ffcc00 has 1\.\d+:1 contrast/);
    expect(read({ BRAND_PRIMARY_COLOR: 'blue' })).toThrow(/#rrggbb/);
    expect(read({ BRAND_LOGO_URL: 'https://cdn.example/logo.png' })).toThrow(ConfigError);
    expect(read({ BRAND_CONTACT_PHONE: '900 123' })).toThrow(/E\.164/);
    expect(read({ BRAND_PRIMARY_COLOR: '#767676' })).not.toThrow(); // 4.54:1, the lightest grey that passes
  });
});
