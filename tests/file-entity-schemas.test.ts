import { sha256Schema, sizeBytesSchema } from '../packages/files/src';
import { platformDocuments } from '../scripts/api-documents';

/** Every object schema in a document (components, operations, nested properties and items). */
function objectSchemas(node: unknown, found: Record<string, unknown>[] = []): Record<string, unknown>[] {
  if (Array.isArray(node)) node.forEach((child) => objectSchemas(child, found));
  else if (node && typeof node === 'object') {
    const record = node as Record<string, unknown>;
    if (record.properties && typeof record.properties === 'object') found.push(record.properties as Record<string, unknown>);
    Object.values(record).forEach((child) => objectSchemas(child, found));
  }
  return found;
}

const withoutDescription = (schema: unknown) => {
  const { description: _description, ...rest } = schema as Record<string, unknown>;
  return rest;
};

describe('a stored file is described the same way wherever the services serve it', () => {
  it('each attachment and evidence item states the SHA-256 pattern and the non-negative size of @platform/files (the claim file once lacked both)', async () => {
    const documents = await platformDocuments();
    const files = (['claims', 'evidence'] as const).flatMap((name) =>
      objectSchemas(documents[name]).filter((properties) => 'attachment_id' in properties || 'evidence_id' in properties),
    );
    const views = files.filter((properties) => 'size_bytes' in properties);
    expect(views.length).toBeGreaterThanOrEqual(6);
    for (const properties of views) {
      expect(withoutDescription(properties.size_bytes)).toEqual(sizeBytesSchema);
      if ('sha256' in properties) expect(withoutDescription(properties.sha256)).toEqual(sha256Schema);
    }
  });
});
