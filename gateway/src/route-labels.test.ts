import type { Request, Response } from 'express';
import { classifyPath } from './request-path';
import { proxiedRouteLabels, routeTemplate } from './route-labels';

const label = (labels: ReturnType<typeof proxiedRouteLabels>, path: string, status = 200) =>
  labels({} as Request, { statusCode: status, locals: { apiRoute: classifyPath(path) } } as unknown as Response);

describe('route labels of proxied requests', () => {
  it('replaces identifiers with :id and keeps the words that name routes', () => {
    expect(routeTemplate('/api/claims/public/claims/8c1d2f0e-5b7a-4c3e-9f1a-2b3c4d5e6f70/status')).toBe(
      '/api/claims/public/claims/:id/status',
    );
    expect(routeTemplate('/api/claims/claims/CLM-2026-000001')).toBe('/api/claims/claims/:id');
    expect(routeTemplate('/api/evidence/audit/verify')).toBe('/api/evidence/audit/verify');
  });

  it('labels a 404 by its group, and a path outside the API not at all', () => {
    const labels = proxiedRouteLabels();
    expect(label(labels, '/api/claims/public/no-such-thing', 404)).toBe('/api/claims/public/*');
    expect(label(labels, '/api/evidence/whatever', 404)).toBe('/api/evidence/*');
    expect(label(labels, '/docs')).toBeUndefined();
  });

  it('keeps at most 200 distinct templates; later ones are labelled by their group', () => {
    const labels = proxiedRouteLabels();
    const word = (n: number) => String.fromCharCode(97 + Math.floor(n / 26), 97 + (n % 26));
    for (let n = 0; n < 200; n += 1) label(labels, `/api/claims/route-${word(n)}`);
    expect(label(labels, '/api/claims/one-more')).toBe('/api/claims/*');
    expect(label(labels, '/api/claims/route-aa')).toBe('/api/claims/route-aa');
  });
});
