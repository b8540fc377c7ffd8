import request from 'supertest';
import { arrangePaidClaim } from '../financials/financials-fixtures';
import { fileClaim, startClaimsTestService, type ClaimsTestService } from '../../testing/claims-test-service';
import { statusUpdatesStore } from '../status-updates';

interface Schema {
  $ref?: string;
  properties?: Record<string, Schema>;
  items?: Schema;
  oneOf?: Schema[];
}

/** `schema` with its `$ref` followed in `document`, and of a `oneOf` the option for `value` (an object's, an array's, else the first). */
function resolved(document: object, schema: Schema, value: unknown): Schema {
  if (schema.$ref) {
    const target = schema.$ref
      .slice(2)
      .split('/')
      .reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], document) as Schema;
    return resolved(document, target, value);
  }
  if (schema.oneOf) {
    const options = schema.oneOf.map((option) => resolved(document, option, value));
    return options.find((option) => (Array.isArray(value) ? option.items : option.properties)) ?? options[0];
  }
  return schema;
}

/** Every object of `value`, by its JSON pointer, with its keys and the keys its schema documents. */
function objectKeys(
  document: object,
  schema: Schema,
  value: unknown,
  pointer = '',
): { pointer: string; sent: string[]; documented: string[] }[] {
  if (value === null || typeof value !== 'object') return [];
  const own = resolved(document, schema, value);
  if (Array.isArray(value)) return value.flatMap((item, index) => objectKeys(document, own.items ?? {}, item, `${pointer}/${index}`));
  const properties = own.properties ?? {};
  return [
    { pointer, sent: Object.keys(value).sort(), documented: Object.keys(properties).sort() },
    ...Object.entries(value).flatMap(([key, child]) =>
      properties[key] ? objectKeys(document, properties[key], child, `${pointer}/${key}`) : [],
    ),
  ];
}

describe("the claimant's status read exposes exactly the keys its OpenAPI schema documents, at every level", () => {
  let t: ClaimsTestService;
  beforeAll(async () => {
    t = await startClaimsTestService();
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('no field the document does not list (an internal one leaking) and none it lists missing: claim, files, updates, history, payments', async () => {
    const claim = await fileClaim(t.url);
    await request(t.url)
      .post(`/api/claims/public/claims/${claim.claim_id}/attachments`)
      .set('Authorization', `Bearer ${claim.access_token}`)
      .attach('file', Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n'), 'estimate.pdf')
      .expect(201);
    await statusUpdatesStore(t.db, null).insert({
      claim_id: claim.claim_id,
      channel: 'portal',
      stage: 'intake',
      what_happened: 'We looked at your photos.',
      what_happens_next: 'An adjuster calls you.',
      what_we_need_from_you: 'A photo of the rear bumper',
      expected_next_update_by: null,
      cta: { label: 'Upload a photo', url: 'https://claims.example.com/upload' },
      contact: { phone: '+14155550199', email: 'ann@insurer.example' },
      portal_url: 'https://claims.example.com/c/1',
      language: 'en',
      created_by: 'adjuster-1',
    });
    await arrangePaidClaim(t.db, claim.claim_id);
    // internal columns with values, so that a projection reading them would show them
    await t.db('claims').where({ id: claim.claim_id }).update({ queue: 'special_investigations', assignee: 'adjuster-1' });

    const document = (await request(t.url).get('/openapi.json').expect(200)).body;
    const schema: Schema = document.paths['/public/claims/{id}/status'].get.responses['200'].content['application/json'].schema;
    const response = await request(t.url)
      .get(`/api/claims/public/claims/${claim.claim_id}/status`)
      .set('Authorization', `Bearer ${claim.access_token}`)
      .expect(200);

    const objects = objectKeys(document, schema, response.body);
    expect(objects.filter(({ sent, documented }) => sent.join() !== documented.join())).toEqual([]);
    // every kind of object the read returns was looked at, with its nested ones
    expect(objects.map(({ pointer }) => pointer.replace(/\/\d+/g, '/n'))).toEqual(
      expect.arrayContaining([
        '',
        '/required_documents/n',
        '/attachments/n',
        '/latest_update',
        '/latest_update/cta',
        '/latest_update/contact',
        '/history',
        '/history/items/n',
        '/history/items/n/update',
        '/payments/n',
        '/payments/n/amount',
      ]),
    );
  });
});
