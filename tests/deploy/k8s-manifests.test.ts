/**
 * deploy/k8s: each overlay renders with `kubectl kustomize`, every rendered object validates against the
 * Kubernetes OpenAPI schemas (kubernetes-models, offline) with unknown fields refused (support/strict-k8s.ts), and the rendered objects keep the properties
 * deploy/README.md promises (replicas, probes, limits, graceful shutdown, non-root, read-only root
 * filesystem, no token, NetworkPolicies, secrets referenced, migrations in a Job).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import * as appsV1 from 'kubernetes-models/apps/v1';
import * as autoscalingV2 from 'kubernetes-models/autoscaling/v2';
import * as batchV1 from 'kubernetes-models/batch/v1';
import * as networkingV1 from 'kubernetes-models/networking.k8s.io/v1';
import * as policyV1 from 'kubernetes-models/policy/v1';
import * as coreV1 from 'kubernetes-models/v1';
import * as monitoringV1 from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1';
import { parseAllDocuments } from 'yaml';
import { prometheusRuleYaml, PROMETHEUS_RULE_FILE } from '../../scripts/prometheus-rule';
import { unknownFields } from './support/strict-k8s';

const root = path.join(__dirname, '../..');
const overlays = ['dev', 'prod'];
const processes = ['gateway', 'claims', 'evidence'];
const migratedServices = ['claims', 'evidence'];
/** Variables whose value is a credential: only ever from a Secret. */
const secretVariables = [
  'DATABASE_URL',
  'MIGRATION_DATABASE_URL',
  'AMQP_URL',
  'AUTH_JWT_SECRET',
  'AUDIT_SIGNING_KEY',
  'OBJECT_STORE_URL',
  'OBJECT_STORE_ACCESS_KEY_ID',
  'OBJECT_STORE_SECRET_ACCESS_KEY',
];

const modelsByApiVersion: Record<string, Record<string, unknown>> = {
  'apps/v1': appsV1,
  'autoscaling/v2': autoscalingV2,
  'batch/v1': batchV1,
  'networking.k8s.io/v1': networkingV1,
  'policy/v1': policyV1,
  v1: coreV1,
  'monitoring.coreos.com/v1': monitoringV1,
};

type K8sObject = { apiVersion: string; kind: string; metadata: { name: string; labels?: Record<string, string> }; [key: string]: any };

function render(overlay: string): K8sObject[] {
  const output = execFileSync('kubectl', ['kustomize', path.join(root, 'deploy/k8s/overlays', overlay)], { encoding: 'utf8' });
  return parseAllDocuments(output).map((document) => document.toJS() as K8sObject);
}

function validate(object: K8sObject): void {
  const Model = modelsByApiVersion[object.apiVersion]?.[object.kind] as (new (data: unknown) => { validate(): void }) | undefined;
  if (!Model) throw new Error(`no schema for ${object.apiVersion} ${object.kind} (${object.metadata.name})`);
  new Model(object).validate();
}

/** After SIGTERM and SHUTDOWN_GRACE_MS, exitOnSignals forces the exit after this long (read from its source). */
function forcedExitAfterGraceMs(): number {
  const source = readFileSync(path.join(root, 'packages/runtime/src/run-service.ts'), 'utf8');
  const match = /setTimeout\(\(\) => process\.exit\(1\), graceMs \+ (\d+)\)/.exec(source);
  if (!match) throw new Error('exitOnSignals no longer forces the exit at graceMs + a constant: update this test');
  return Number(match[1]);
}

describe.each(overlays)('deploy/k8s/overlays/%s', (overlay) => {
  const objects = render(overlay);
  const all = (kind: string) => objects.filter((object) => object.kind === kind);
  const one = (kind: string, name: string) => {
    const found = objects.find((object) => object.kind === kind && object.metadata.name === name);
    if (!found) throw new Error(`${kind} ${name} is not rendered`);
    return found;
  };
  const config = all('ConfigMap').find((map) => map.metadata.name.startsWith('platform-config'))!;
  const workloads = [...processes.map((name) => one('Deployment', name)), ...migratedServices.map((name) => one('Job', `${name}-migrate`))];

  it('renders objects that all validate against the Kubernetes schemas, with no field the schemas do not know', () => {
    expect(objects.length).toBeGreaterThan(0);
    for (const object of objects) expect(() => validate(object)).not.toThrow();
    expect(unknownFields(objects)).toEqual([]);
  });

  if (overlay === 'prod')
    it('pins every image by digest', () => {
      const images = workloads.flatMap((workload) =>
        workload.spec.template.spec.containers.map((container: { image: string }) => container.image),
      );
      expect(images.length).toBeGreaterThan(0);
      for (const image of images) expect(image).toMatch(/^[^@\s]+@sha256:[0-9a-f]{64}$/);
    });

  it('runs every process with 2+ replicas, an autoscaler from 2 and a disruption budget', () => {
    for (const name of processes) {
      const deployment = one('Deployment', name);
      expect(deployment.spec.replicas).toBeGreaterThanOrEqual(2);
      const autoscaler = one('HorizontalPodAutoscaler', name);
      expect(autoscaler.spec.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name });
      expect(autoscaler.spec.minReplicas).toBeGreaterThanOrEqual(2);
      expect(autoscaler.spec.maxReplicas).toBeGreaterThan(autoscaler.spec.minReplicas);
      expect(one('PodDisruptionBudget', name).spec.selector).toEqual(deployment.spec.selector);
      expect(one('Service', name).spec.selector).toEqual(deployment.spec.selector.matchLabels);
    }
  });

  it('gives every container requests and limits, /healthz liveness and /readyz readiness', () => {
    for (const name of processes) {
      for (const container of one('Deployment', name).spec.template.spec.containers) {
        for (const bound of ['requests', 'limits']) expect(Object.keys(container.resources[bound]).sort()).toEqual(['cpu', 'memory']);
        expect(container.livenessProbe.httpGet.path).toBe('/healthz');
        expect(container.readinessProbe.httpGet.path).toBe('/readyz');
      }
    }
    for (const job of all('Job'))
      for (const container of job.spec.template.spec.containers) expect(container.resources.limits).toBeDefined();
  });

  it('pauses before SIGTERM and allows the whole shutdown within the termination grace period', () => {
    const shutdownGraceMs = Number(config.data.SHUTDOWN_GRACE_MS);
    expect(shutdownGraceMs).toBeGreaterThan(0);
    for (const name of processes) {
      const pod = one('Deployment', name).spec.template.spec;
      for (const container of pod.containers) {
        const [command, seconds] = container.lifecycle.preStop.exec.command;
        expect(command).toBe('sleep');
        // longer than the load balancer's deregistration (10 s, deploy/README.md)
        expect(Number(seconds)).toBeGreaterThan(10);
        expect(pod.terminationGracePeriodSeconds * 1000).toBeGreaterThan(
          Number(seconds) * 1000 + shutdownGraceMs + forcedExitAfterGraceMs(),
        );
      }
    }
  });

  it('runs every pod non-root, read-only, without privileges or a service account token', () => {
    for (const workload of workloads) {
      const pod = workload.spec.template.spec;
      expect(pod.automountServiceAccountToken).toBe(false);
      expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } });
      expect(pod.securityContext.runAsUser).toBeGreaterThan(0);
      for (const container of pod.containers) {
        expect(container.securityContext).toMatchObject({
          readOnlyRootFilesystem: true,
          allowPrivilegeEscalation: false,
          capabilities: { drop: ['ALL'] },
        });
        expect(container.securityContext.privileged).not.toBe(true);
        // the only writable places are volumes: /tmp everywhere, DATA_DIR in the services
        const mounts = container.volumeMounts.map((mount: { mountPath: string }) => mount.mountPath);
        expect(mounts).toContain('/tmp');
        if (workload.metadata.name !== 'gateway') expect(mounts).toContain(config.data.DATA_DIR);
      }
    }
  });

  it('references every credential from a Secret and inlines none', () => {
    expect(all('Secret')).toEqual([]);
    for (const variable of secretVariables) expect(config.data).not.toHaveProperty(variable);
    for (const workload of workloads) {
      for (const container of workload.spec.template.spec.containers) {
        for (const variable of container.env ?? []) {
          if (secretVariables.includes(variable.name)) {
            expect({ [variable.name]: variable.valueFrom?.secretKeyRef?.name }).toEqual({ [variable.name]: expect.any(String) });
            expect(variable.value).toBeUndefined();
          }
        }
      }
    }
  });

  it("keeps uploaded files in the object store (a Secret), never on one replica's disk", () => {
    for (const name of migratedServices) {
      const container = one('Deployment', name).spec.template.spec.containers[0];
      const env = Object.fromEntries(container.env.map((variable: any) => [variable.name, variable]));
      expect(env.OBJECT_STORE_URL.valueFrom.secretKeyRef).toEqual({ name: 'object-store', key: 'url' });
      expect(env.OBJECT_STORE_SECRET_ACCESS_KEY.valueFrom.secretKeyRef).toMatchObject({ name: 'object-store' });
      // local files only where exactly one replica is pinned: none here runs one replica
      expect(env.LOCAL_FILES_SINGLE_REPLICA).toBeUndefined();
      expect(config.data.LOCAL_FILES_SINGLE_REPLICA).toBeUndefined();
    }
  });

  it('gives every claims replica the same key-encryption key: the Secret the example documents, mounted read-only at PRIVACY_KEK_FILE', () => {
    const pod = one('Deployment', 'claims').spec.template.spec;
    const [container] = pod.containers;
    const settings: Record<string, string> = {
      ...config.data,
      ...Object.fromEntries((container.env ?? []).filter((v: any) => v.value !== undefined).map((v: any) => [v.name, v.value])),
    };
    expect(settings.KEY_VAULT ?? 'local').toBe('local');
    const file = settings.PRIVACY_KEK_FILE;
    expect(file).toMatch(/^\//);
    // not in the pod's own DATA_DIR (an emptyDir: a key per pod) but in a volume every pod of the template shares
    expect(file.startsWith(`${settings.DATA_DIR}/`)).toBe(false);
    const mount = container.volumeMounts.find((m: any) => file.startsWith(`${m.mountPath}/`));
    expect(mount).toMatchObject({ readOnly: true });
    const volume = pod.volumes.find((v: any) => v.name === mount.name);
    expect(volume.emptyDir).toBeUndefined();
    const { secretName, items } = volume.secret;
    const item = items.find((i: any) => i.path === path.posix.relative(mount.mountPath, file));
    expect(item).toBeDefined();
    const documented = parseAllDocuments(readFileSync(path.join(root, 'deploy/k8s/secret.example.yaml'), 'utf8'))
      .map((document) => document.toJS() as K8sObject)
      .find((secret) => secret.metadata.name === secretName);
    expect(Object.keys(documented?.stringData ?? {})).toContain(item.key);
    // the migration Job reads the same settings (PRIVACY_KEK_FILE is required in production) but never the key
    const job = one('Job', 'claims-migrate').spec.template.spec;
    expect(job.containers[0].envFrom).toEqual(container.envFrom);
    expect(job.volumes.some((v: any) => v.secret)).toBe(false);
  });

  it('migrates in a Job as the owner role; the Deployments hold only the runtime role', () => {
    for (const service of migratedServices) {
      const [migrate] = one('Job', `${service}-migrate`).spec.template.spec.containers;
      const [server] = one('Deployment', service).spec.template.spec.containers;
      expect(migrate.image).toBe(server.image);
      expect(migrate.command.at(-1)).toBe('migrate');
      const secretOf = (container: any, name: string) =>
        container.env.find((variable: any) => variable.name === name)?.valueFrom.secretKeyRef.name;
      expect(secretOf(migrate, 'MIGRATION_DATABASE_URL')).toBeDefined();
      expect(secretOf(migrate, 'MIGRATION_DATABASE_URL')).not.toBe(secretOf(server, 'DATABASE_URL'));
      expect(secretOf(server, 'MIGRATION_DATABASE_URL')).toBeUndefined();
      expect(secretOf(server, 'DATABASE_URL')).toBe(secretOf(migrate, 'DATABASE_URL'));
    }
  });

  it('exposes only the gateway through the Ingress', () => {
    const backends = all('Ingress').flatMap((ingress) =>
      ingress.spec.rules.flatMap((rule: any) => rule.http.paths.map((p: any) => p.backend.service)),
    );
    expect(backends.length).toBeGreaterThan(0);
    for (const backend of backends) expect(backend).toEqual({ name: 'gateway', port: { name: 'http' } });
  });

  describe('NetworkPolicies', () => {
    const policies = all('NetworkPolicy');
    const policyOf = (name: string) => {
      const matching = policies.filter((policy) => policy.spec.podSelector.matchLabels?.['app.kubernetes.io/name'] === name);
      expect(matching).toHaveLength(1);
      expect(matching[0].spec.policyTypes.sort()).toEqual(['Egress', 'Ingress']);
      return matching[0].spec;
    };
    const peers = (rules: any[]) => rules.flatMap((rule) => rule.from ?? rule.to);
    const monitoring = { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } } };
    const dns = {
      namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'kube-system' } },
      podSelector: { matchLabels: { 'k8s-app': 'kube-dns' } },
    };

    it('isolate every pod of the platform by default', () => {
      const defaultDeny = policies.find((policy) => policy.metadata.name === 'default-deny')!;
      expect(defaultDeny.spec).toEqual({
        podSelector: { matchLabels: { 'app.kubernetes.io/part-of': 'claims-platform' } },
        policyTypes: ['Ingress', 'Egress'],
      });
      for (const workload of workloads) expect(workload.spec.template.metadata.labels['app.kubernetes.io/part-of']).toBe('claims-platform');
    });

    it.each(migratedServices)(
      'let only the gateway (and scrapers) reach %s, which reaches only its database, RabbitMQ, clamd, the object store (HTTPS outside the cluster) and DNS',
      (service) => {
        const policy = policyOf(service);
        expect(peers(policy.ingress)).toEqual([{ podSelector: { matchLabels: { 'app.kubernetes.io/name': 'gateway' } } }, monitoring]);
        expect(peers(policy.egress)).toEqual([
          { podSelector: { matchLabels: { 'cnpg.io/cluster': `${service}-db` } } },
          { podSelector: { matchLabels: { 'app.kubernetes.io/name': 'rabbitmq' } } },
          { podSelector: { matchLabels: { 'app.kubernetes.io/name': 'clamd' } } },
          { ipBlock: { cidr: '0.0.0.0/0', except: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16'] } },
          dns,
        ]);
        const objectStoreRule = policy.egress.find((rule: any) => rule.to.some((peer: any) => peer.ipBlock));
        expect(objectStoreRule.ports).toEqual([{ protocol: 'TCP', port: 443 }]);
        const migrate = policyOf(`${service}-migrate`);
        expect(migrate.ingress).toBeUndefined();
        expect(peers(migrate.egress)).toEqual([{ podSelector: { matchLabels: { 'cnpg.io/cluster': `${service}-db` } } }, dns]);
      },
    );

    it('serve the gateway metrics port to the monitoring namespace only', () => {
      const policy = policyOf('gateway');
      const metricsPort = one('Deployment', 'gateway').spec.template.spec.containers[0].ports.find(
        (port: any) => port.name === 'metrics',
      ).containerPort;
      const rulesWithMetrics = policy.ingress.filter((rule: any) => rule.ports.some((port: any) => port.port === metricsPort));
      expect(rulesWithMetrics).toEqual([{ from: [monitoring], ports: [{ protocol: 'TCP', port: metricsPort }] }]);
      expect(peers(policy.egress)).toEqual([
        { podSelector: { matchLabels: { 'app.kubernetes.io/name': 'claims' } } },
        { podSelector: { matchLabels: { 'app.kubernetes.io/name': 'evidence' } } },
        dns,
      ]);
    });
  });
});

describe('the offline schema validation', () => {
  it('refuses an object that does not match its schema (so passing it means something)', () => {
    const broken = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'broken' },
      spec: { replicas: 'two', template: {} },
    } as K8sObject;
    expect(() => validate(broken)).toThrow();
  });

  it('refuses a misspelt field (readinesProbe), which the kubernetes-models validators alone accept', () => {
    const objects = render('prod');
    const deployment = objects.find((object) => object.kind === 'Deployment' && object.metadata.name === 'claims')!;
    const container = deployment.spec.template.spec.containers[0];
    container.readinesProbe = container.readinessProbe;
    delete container.readinessProbe;
    expect(() => validate(deployment)).not.toThrow();
    expect(unknownFields(objects)).toEqual([
      expect.stringMatching(/^Deployment claims: .*'"readinesProbe"' does not exist in type 'IContainer'/),
    ]);
  });

  it('refuses an unknown field at the top of a spec and an unknown kind', () => {
    const hpa = {
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'h' },
      spec: { scaleTargetRef: { kind: 'Deployment', name: 'd' }, maxReplicas: 3, minReplica: 2 },
    };
    const unknownKind = { apiVersion: 'v1', kind: 'Pond', metadata: { name: 'p' } };
    const problems = unknownFields([hpa, unknownKind]);
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^HorizontalPodAutoscaler h: .*'"minReplica"' does not exist/),
        expect.stringMatching(/'IPond'/),
      ]),
    );
    expect(problems).toHaveLength(2);
  });
});

describe('monitoring in the prod overlay', () => {
  const objects = render('prod');

  it('carries the alerting rules of deploy/monitoring/alerts.yml as a PrometheusRule (regenerate: tsx scripts/prometheus-rule.ts)', () => {
    expect(readFileSync(PROMETHEUS_RULE_FILE, 'utf8')).toBe(prometheusRuleYaml());
    const rule = objects.find((object) => object.kind === 'PrometheusRule');
    const alerts = parseAllDocuments(readFileSync(path.join(root, 'deploy/monitoring/alerts.yml'), 'utf8'))[0].toJS();
    expect(rule?.spec.groups).toEqual(alerts.groups);
  });

  it('has every process scraped by a ServiceMonitor on a port its Service names, with the job label the rules use', () => {
    const monitors = objects.filter((object) => object.kind === 'ServiceMonitor');
    for (const name of processes) {
      const service = objects.find((object) => object.kind === 'Service' && object.metadata.name === name)!;
      const monitor = monitors.find((candidate) => {
        const { matchLabels = {}, matchExpressions = [] } = candidate.spec.selector;
        const labels = service.metadata.labels ?? {};
        return (
          Object.entries(matchLabels).every(([key, value]) => labels[key] === value) &&
          matchExpressions.every((expression: { key: string; values: string[] }) => expression.values.includes(labels[expression.key]))
        );
      });
      expect({ name, monitored: Boolean(monitor) }).toEqual({ name, monitored: true });
      expect(monitor!.spec.jobLabel).toBe('app.kubernetes.io/name');
      const ports = service.spec.ports.map((port: { name: string }) => port.name);
      for (const endpoint of monitor!.spec.endpoints) expect(ports).toContain(endpoint.port);
    }
  });
});
