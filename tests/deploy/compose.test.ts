/**
 * docker-compose.yml, as `docker-compose config` renders it: the services keep uploaded files in the
 * S3-compatible store the file starts (never on one container's disk), after its bucket exists.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { parse } from 'yaml';

const root = path.join(__dirname, '../..');

type Service = { image?: string; environment?: Record<string, string>; depends_on?: Record<string, { condition: string }> };

function rendered(): Record<string, Service> {
  const output = execFileSync('docker-compose', ['config'], {
    cwd: root,
    encoding: 'utf8',
    env: { PATH: process.env.PATH, AUTH_JWT_SECRET: 'compose-test-secret-compose-test-secret', AUDIT_SIGNING_KEY: 'test' },
  });
  return (parse(output) as { services: Record<string, Service> }).services;
}

describe('docker-compose.yml', () => {
  const services = rendered();

  it.each(['claims', 'evidence', 'claims-migrate', 'evidence-migrate'])(
    'gives %s the object store the file runs, by path-style endpoint',
    (name) => {
      const env = services[name].environment!;
      expect(env.OBJECT_STORE_URL).toMatch(/^s3:\/\/[a-z0-9.-]+/);
      const endpoint = new URL(env.OBJECT_STORE_ENDPOINT);
      expect(services[endpoint.hostname]?.image).toMatch(/^minio\/minio:RELEASE\./);
      expect(env.OBJECT_STORE_ACCESS_KEY_ID).toBe(services[endpoint.hostname].environment!.MINIO_ROOT_USER);
      expect(env.OBJECT_STORE_SECRET_ACCESS_KEY).toBe(services[endpoint.hostname].environment!.MINIO_ROOT_PASSWORD);
      expect(env.LOCAL_FILES_SINGLE_REPLICA).toBeUndefined();
    },
  );

  it('starts the services only after the bucket they name exists', () => {
    const bucket = new URL(services.claims.environment!.OBJECT_STORE_URL).hostname;
    expect(JSON.stringify(services['object-store-bucket'])).toContain(`store/${bucket}`);
    for (const name of ['claims', 'evidence'])
      expect(services[name].depends_on!['object-store-bucket']).toEqual({ condition: 'service_completed_successfully' });
  });
});
