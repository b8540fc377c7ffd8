/**
 * docker-compose.yml, as `docker-compose config` renders it: the services keep uploaded files in the
 * S3-compatible store the file starts (never on one container's disk), after its bucket exists; every
 * container is hardened as the Kubernetes pods are; no password has a default.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { COMPOSE_REQUIRED_ENV } from './support/compose-env';

const root = path.join(__dirname, '../..');

const mount = (volume: string) => {
  const [source, target, mode] = volume.split(':');
  return { source, target, mode };
};

type Service = {
  image?: string;
  build?: { dockerfile: string };
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
  user?: string;
  read_only?: boolean;
  tmpfs?: string[];
  cap_drop?: string[];
  cap_add?: string[];
  security_opt?: string[];
  mem_limit?: string | number;
  cpus?: number | string;
  pids_limit?: number;
  healthcheck?: { test?: string[]; disable?: boolean };
  restart?: string;
  /** `source:target:mode`, as docker-compose 1.x renders them. */
  volumes?: string[];
  secrets?: { source: string; target?: string }[];
};

const compose = (env: Record<string, string>) =>
  spawnSync('docker-compose', ['config'], { cwd: root, encoding: 'utf8', env: { PATH: process.env.PATH, ...env } });

type Rendered = { services: Record<string, Service>; secrets?: Record<string, { file: string }> };

function rendered(): Rendered {
  const output = execFileSync('docker-compose', ['config'], {
    cwd: root,
    encoding: 'utf8',
    env: { PATH: process.env.PATH, ...COMPOSE_REQUIRED_ENV },
  });
  return parse(output) as Rendered;
}

describe('docker-compose.yml', () => {
  const { services, secrets } = rendered();
  const platform = ['gateway', 'claims', 'evidence', 'claims-migrate', 'evidence-migrate'];

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

  it("gives every claims replica the same key-encryption key: one secret file at PRIVACY_KEK_FILE, outside the replica's DATA_DIR", () => {
    const claims = services.claims;
    const env = claims.environment!;
    expect(env.KEY_VAULT ?? 'local').toBe('local');
    const [mounted] = (claims.secrets ?? []).filter((secret) => env.PRIVACY_KEK_FILE === `/run/secrets/${secret.target ?? secret.source}`);
    expect(mounted).toBeDefined();
    // a file of the host, which every replica of the service (docker compose up --scale claims=N) mounts alike
    expect(path.relative(root, secrets![mounted.source].file)).toBe('deploy/secrets/privacy-kek.key');
    expect(readFileSync(path.join(root, '.gitignore'), 'utf8')).toMatch(/^deploy\/secrets\/$/m);
    expect(env.PRIVACY_KEK_FILE.startsWith(`${env.DATA_DIR}/`)).toBe(false);
    // the migrations read the same configuration but never the key: it is not mounted there
    expect(services['claims-migrate'].environment!.PRIVACY_KEK_FILE).toBe(env.PRIVACY_KEK_FILE);
    expect(services['claims-migrate'].secrets).toBeUndefined();
  });

  it('starts the services only after the bucket they name exists', () => {
    const bucket = new URL(services.claims.environment!.OBJECT_STORE_URL).hostname;
    expect(JSON.stringify(services['object-store-bucket'])).toContain(`store/${bucket}`);
    for (const name of ['claims', 'evidence'])
      expect(services[name].depends_on!['object-store-bucket']).toEqual({ condition: 'service_completed_successfully' });
  });

  it('refuses to start while any secret or password is unset, naming it', () => {
    expect(compose(COMPOSE_REQUIRED_ENV).status).toBe(0);
    for (const name of Object.keys(COMPOSE_REQUIRED_ENV)) {
      const { [name]: _left, ...others } = COMPOSE_REQUIRED_ENV;
      const refused = compose(others);
      expect({ name, status: refused.status }).toEqual({ name, status: 1 });
      expect(refused.stderr).toContain(`${name} must be set`);
    }
  });

  it('drops every capability, forbids gaining privileges and limits memory, CPU and processes in every container', () => {
    for (const [name, service] of Object.entries(services)) {
      expect({ name, cap_drop: service.cap_drop }).toEqual({ name, cap_drop: ['ALL'] });
      expect({ name, security_opt: service.security_opt }).toEqual({ name, security_opt: ['no-new-privileges:true'] });
      // the stock images' entrypoints start as root and step down to their own user: only what that takes comes back
      for (const capability of service.cap_add ?? []) expect(['CHOWN', 'DAC_OVERRIDE', 'FOWNER', 'SETGID', 'SETUID']).toContain(capability);
      expect({ name, memory: Boolean(service.mem_limit), cpus: Number(service.cpus) > 0, pids: (service.pids_limit ?? 0) > 0 }).toEqual({
        name,
        memory: true,
        cpus: true,
        pids: true,
      });
    }
  });

  it('runs the platform as uid 1000 on a read-only root filesystem with a /tmp tmpfs and nothing given back', () => {
    for (const name of platform) {
      const service = services[name];
      expect({ name, user: service.user, read_only: service.read_only, cap_add: service.cap_add }).toEqual({
        name,
        user: '1000:1000',
        read_only: true,
        cap_add: undefined,
      });
      expect(service.tmpfs?.some((mount) => mount.startsWith('/tmp'))).toBe(true);
    }
    // what they write besides /tmp: the DATA_DIR volume of the two services
    for (const name of ['claims', 'evidence'])
      expect(services[name].volumes?.map((volume) => mount(volume).target)).toEqual([services[name].environment!.DATA_DIR]);
  });

  it('has a health check on every long-running container (the platform images carry theirs)', () => {
    for (const [name, service] of Object.entries(services)) {
      if (service.restart === 'no') continue; // one-shot
      const own = service.healthcheck?.test && !service.healthcheck.disable;
      const fromImage = service.build?.dockerfile === 'deploy/Dockerfile' && !service.healthcheck?.disable;
      expect({ name, healthcheck: Boolean(own || fromImage) }).toEqual({ name, healthcheck: true });
    }
  });

  it('scans uploads with a clamd of its own, and puts the platform on a vhost whose default queue type is quorum', () => {
    for (const name of ['claims', 'evidence']) {
      const clamd = new URL(services[name].environment!.CLAMD_URL);
      expect(clamd.protocol).toBe('tcp:');
      expect(services[clamd.hostname]?.image).toMatch(/^clamav\/clamav:/);
      const amqp = new URL(services[name].environment!.AMQP_URL);
      expect(amqp.pathname).toBe(`/${services.rabbitmq.environment!.RABBITMQ_DEFAULT_VHOST}`);
    }
    const conf = services.rabbitmq.volumes!.map(mount).find((volume) => volume.target.startsWith('/etc/rabbitmq/conf.d/'))!;
    expect(conf.mode).toBe('ro');
    expect(readFileSync(conf.source, 'utf8')).toMatch(/^default_queue_type = quorum$/m);
  });
});
