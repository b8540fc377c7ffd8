import { claimsEventCatalog } from '../services/claims/src/events';
import { platformDocuments } from '../scripts/api-documents';

type Schema = { $ref?: string; properties?: Record<string, Schema>; oneOf?: Schema[]; items?: Schema; [key: string]: unknown };
type Document = { paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: Schema }> } }>> };

const STATUS_UPDATE_FIELDS = [
  'adequacy_missing',
  'adequacy_score',
  'channel',
  'claim_id',
  'contact',
  'cta',
  'expected_next_update_by',
  'language',
  'portal_url',
  'stage',
  'what_happened',
  'what_happens_next',
  'what_we_need_from_you',
];
/** What a stored update adds around the thirteen fields where it is listed (the claim file). */
const PROVENANCE = ['created_at', 'created_by', 'update_id'];

/** Every object schema in a document holding a StatusUpdate's text (`what_happens_next`): requests and responses. */
function statusUpdateSchemas(document: object): { where: string; schema: Schema }[] {
  const found: { where: string; schema: Schema }[] = [];
  const walk = (value: unknown, where: string) => {
    if (value === null || typeof value !== 'object') return;
    const schema = value as Schema;
    if (schema.properties && typeof schema.properties === 'object' && 'what_happens_next' in schema.properties)
      found.push({ where, schema });
    for (const [key, child] of Object.entries(value)) walk(child, `${where}/${key}`);
  };
  walk(document, '#');
  return found;
}

const objectOf = (schema: Schema | undefined) => schema?.oneOf?.find((option) => option.properties) ?? schema;
const keysOf = (schema: Schema | undefined) => Object.keys(objectOf(schema)?.properties ?? {}).sort();

describe('the StatusUpdate in the OpenAPI and AsyncAPI documents is exactly the interface document’s shape', () => {
  let platform: Document;
  beforeAll(async () => {
    platform = (await platformDocuments()).platform as Document;
  });

  it('every request and response schema holding a StatusUpdate lists only its fields; contact is {phone, email}, cta {label, url}', () => {
    const schemas = statusUpdateSchemas(platform);
    expect(schemas.length).toBeGreaterThanOrEqual(3); // the StatusUpdate, the status-updates request, the closing's status_update
    for (const { where, schema } of schemas) {
      const keys = keysOf(schema);
      const unknown = keys.filter((key) => !STATUS_UPDATE_FIELDS.includes(key) && !PROVENANCE.includes(key));
      expect({ where, unknown }).toEqual({ where, unknown: [] });
      expect({ where, contact: keysOf(schema.properties!.contact) }).toEqual({ where, contact: ['email', 'phone'] });
      expect({ where, cta: keysOf(schema.properties!.cta) }).toEqual({ where, cta: ['label', 'url'] });
      expect({ where, closed: objectOf(schema.properties!.contact)?.additionalProperties }).toEqual({ where, closed: false });
      expect({ where, closed: schema.additionalProperties }).toEqual({ where, closed: false });
    }
  });

  it('POST …/status-updates takes the StatusUpdate less its computed fields; POST …/closing takes { reason, rationale?, status_update }', () => {
    const body = (path: string) => platform.paths[path].post.requestBody!.content['application/json'].schema;
    const resolve = (schema: Schema): Schema => {
      if (!schema.$ref) return schema;
      const name = schema.$ref.split('/').pop()!;
      return (platform as unknown as { components: { schemas: Record<string, Schema> } }).components.schemas[name];
    };
    const update = resolve(body('/api/claims/claims/{id}/status-updates'));
    expect(keysOf(update)).toEqual(STATUS_UPDATE_FIELDS.filter((key) => !key.startsWith('adequacy_')));
    const closing = resolve(body('/api/claims/claims/{id}/closing'));
    expect(keysOf(closing)).toEqual(['rationale', 'reason', 'status_update']);
    expect(closing.required).toEqual(['reason', 'status_update']);
    expect(keysOf(closing.properties!.status_update)).toEqual(keysOf(update));
    expect(closing.properties!.status_update.properties!.stage).toEqual({ const: 'closed' });
  });

  it('claim.status_updated carries the facts of an update, nothing about closing; claim.closed carries the reason', () => {
    const kind = (type: string) => claimsEventCatalog.kinds.find((candidate) => candidate.type === type)!;
    expect(Object.keys((kind('claim.status_updated').schema as Schema).properties!).sort()).toEqual([
      'actor',
      'adequacy_missing',
      'adequacy_score',
      'channel',
      'claim_id',
      'expected_next_update_by',
      'previous_stage',
      'stage',
      'transition',
      'update_id',
    ]);
    expect(Object.keys((kind('claim.closed').schema as Schema).properties!).sort()).toEqual([
      'actor',
      'claim_id',
      'closing_reason',
      'previous_stage',
      'stage',
      'update_id',
    ]);
  });
});
