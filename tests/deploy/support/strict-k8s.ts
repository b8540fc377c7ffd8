import { typeCheck } from './typed-literals';

/**
 * Strict validation of Kubernetes objects offline: the kubernetes-models validators check types, required
 * fields and formats but accept any field they do not know (a `readinesProbe` passes). Its TypeScript
 * declarations, generated from the same Kubernetes OpenAPI schemas, name every field each object may have;
 * checked as object literals, TypeScript refuses every field that is not in the schema (excess property
 * checks apply at every depth of a literal). Each object becomes one typed constant in a scratch module
 * inside the repository (so `kubernetes-models` resolves), compiled without emitting.
 */
type K8sObject = { apiVersion: string; kind: string; metadata?: { name?: string } };

/** The kubernetes-models module of an apiVersion: `apps/v1` → `kubernetes-models/apps/v1`, `v1` → `kubernetes-models/v1`; the Prometheus operator's from its own package. */
const moduleOf = (apiVersion: string) =>
  apiVersion.startsWith('monitoring.coreos.com/')
    ? `@kubernetes-models/prometheus-operator/${apiVersion}`
    : `kubernetes-models/${apiVersion}`;

/** One message per field (or value) an object has that its schema does not allow, naming the object. */
export function unknownFields(objects: K8sObject[]): string[] {
  const imports = new Map<string, string>();
  const declarations = objects.map((object, index) => {
    const alias = `T${imports.size}`;
    const key = `${object.apiVersion} ${object.kind}`;
    if (!imports.has(key)) imports.set(key, `import type { I${object.kind} as ${alias} } from '${moduleOf(object.apiVersion)}';`);
    const type = imports.get(key)!.split(' as ')[1].split(' ')[0];
    return `// ${object.kind} ${object.metadata?.name ?? '?'}\nexport const o${index}: ${type} = ${JSON.stringify(object, null, 1)};`;
  });
  const source = [...imports.values(), ...declarations].join('\n');
  const lines = source.split('\n');
  return typeCheck(source).map(({ line, message }) => {
    if (line < 0) return message;
    // the object's name is in the comment above its constant
    const owner =
      lines
        .slice(0, line + 1)
        .reverse()
        .find((text) => text.startsWith('// ')) ?? '';
    return `${owner.slice(3)}: ${message}`;
  });
}
