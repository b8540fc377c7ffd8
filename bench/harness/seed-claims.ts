import { createDatabase } from '@platform/db';
import { claimantPrivacyFor } from '../../services/claims/src/features/claimants';
import { nameIndexKey, nameTokens } from '../../services/claims/src/features/claims-list/claimant-name-index';
import { pgClient } from './workspace-modules';

const FIRST_NAMES = [
  'Ana',
  'María',
  'José',
  'Pedro',
  'Lucía',
  'Carmen',
  'John',
  'Mary',
  'James',
  'Patricia',
  'Robert',
  'Jennifer',
  'Michael',
  'Linda',
  'William',
  'Elizabeth',
  'David',
  'Barbara',
  'Richard',
  'Susan',
  'Joseph',
  'Jessica',
  'Thomas',
  'Sarah',
  'Charles',
  'Karen',
  'Wei',
  'Mei',
  'Hiroshi',
  'Yuki',
  'Aarav',
  'Priya',
  'Mohammed',
  'Fatima',
  'Olga',
  'Ivan',
  'Sven',
  'Ingrid',
  'Chidi',
  'Amara',
];
const LAST_NAMES = [
  'Ruiz',
  'Gonzalez',
  'Rodriguez',
  'Fernandez',
  'Lopez',
  'Martinez',
  'Sanchez',
  'Perez',
  'Gomez',
  'Diaz',
  'Smith',
  'Johnson',
  'Williams',
  'Brown',
  'Jones',
  'Garcia',
  'Miller',
  'Davis',
  'Wilson',
  'Anderson',
  'Taylor',
  'Thomas',
  'Moore',
  'Jackson',
  'Martin',
  'Lee',
  'Thompson',
  'White',
  'Harris',
  'Clark',
  'Lewis',
  'Robinson',
  'Walker',
  'Young',
  'Allen',
  'King',
  'Wright',
  'Scott',
  'Torres',
  'Nguyen',
  'Hill',
  'Flores',
  'Green',
  'Adams',
  'Nelson',
  'Baker',
  'Hall',
  'Rivera',
  'Campbell',
  'Mitchell',
  'Carter',
  'Roberts',
  'Wang',
  'Li',
  'Zhang',
  'Chen',
  'Tanaka',
  'Suzuki',
  'Sato',
  'Patel',
  'Sharma',
  'Singh',
  'Khan',
  'Ahmed',
  'Ivanov',
  'Petrov',
  'Johansson',
  'Larsson',
  'Okafor',
  'Mensah',
  'Kowalski',
  'Nowak',
  'Rossi',
  'Russo',
  'Ferrari',
  'Esposito',
  'Dubois',
  'Moreau',
  'Schmidt',
  'Schneider',
  'Fischer',
  'Weber',
  'Meyer',
  'Wagner',
  'Becker',
  'Hoffmann',
  'Murphy',
  'Kelly',
  "O'Brien",
  'Walsh',
];
const EMAIL_DOMAINS = ['example.com', 'mail.example.org', 'example.net', 'post.example', 'inbox.example.com'];

/**
 * Who the i-th seeded claim is from — varied names (repeating as real names do), emails and phones,
 * so a search finds a handful of claims, not all of them. The SQL of seedClaims computes the same.
 */
export function seededClaimant(i: number): { name: string; email: string; phone: string } {
  const first = FIRST_NAMES[i % FIRST_NAMES.length];
  const last = LAST_NAMES[Math.floor(i / FIRST_NAMES.length) % LAST_NAMES.length];
  const local = `${first}.${last}`
    .toLowerCase()
    .normalize('NFD')
    .replace(/[^a-z.]/g, '');
  return { name: `${first} ${last}`, email: `${local}${i}@${EMAIL_DOMAINS[i % EMAIL_DOMAINS.length]}`, phone: `+1${2012000000 + i}` };
}

/**
 * Grows the claims table to `target` rows with bulk SQL (INSERT … SELECT generate_series), in the shape
 * intake writes: a claim with its checklist and service-level dates, its acknowledgement status update
 * and its audit entry, from varied claimants (seededClaimant). Seeded claims carry the year 2019 in their numbers (never handed out by the
 * service this run), had their acknowledgement delivered and their first contact made, and promise their
 * next update in the future, so the deadline sweep finds nothing to announce for them. Their names go into
 * the claims list's keyed name index under the service's key (in the database, wrapped by the key-encryption
 * key in `dataDir`, the claims process's DATA_DIR).
 */
export async function seedClaims(databaseUrl: string, dataDir: string, target: number, log: (line: string) => void): Promise<number> {
  const key = await serviceNameIndexKey(databaseUrl, dataDir);
  // The tokens of every seeded name, by its place in seededClaimant's cycle (first name, then last name).
  const tokensByName = LAST_NAMES.flatMap((last) => FIRST_NAMES.map((first) => `{${nameTokens(`${first} ${last}`, key).join(',')}}`));
  const client = pgClient(databaseUrl);
  await client.connect();
  try {
    let count = Number((await client.query('SELECT count(*) AS n FROM claims')).rows[0].n);
    const already = Number((await client.query(`SELECT count(*) AS n FROM claims WHERE claim_number LIKE 'CLM-2019-%'`)).rows[0].n);
    let next = already + 1;
    const batch = 100000;
    while (count < target) {
      const size = Math.min(batch, target - count);
      const from = next;
      const to = next + size - 1;
      await client.query('BEGIN');
      // each seeded claim has a claimant of its own, without blind indexes or data key (as claims filed before encryption)
      await client.query(
        `INSERT INTO claimants (id) SELECT md5('seeded-claimant-' || i)::uuid FROM generate_series($1::int, $2::int) AS i`,
        [from, to],
      );
      await client.query(
        `INSERT INTO claims (id, claimant_id, claim_number, policy_number, claimant_name, claimant_email, claimant_phone, loss_date, loss_type,
           loss_description, loss_location, injuries, police_report_number, estimated_amount, estimated_currency, preferred_channel,
           language, stage, queue, access_token_hash, required_documents, received_at, acknowledge_by, acknowledged_at,
           first_contact_due, next_update_due, created_at, updated_at, acknowledgement_delivered_at, first_contact_made_at)
         SELECT gen_random_uuid(), md5('seeded-claimant-' || i)::uuid, 'CLM-2019-' || lpad(i::text, 7, '0'), 'POL-' || lpad((100000 + i % 899999)::text, 6, '0'),
           first_name || ' ' || last_name,
           regexp_replace(lower(unaccent_name), '[^a-z.]', '', 'g') || i || '@' || ($5::text[])[1 + i % cardinality($5::text[])],
           '+1' || (2012000000 + i),
           date '2024-01-01' + (i % 600), (ARRAY['auto_collision','auto_glass','auto_theft','property_water','property_fire',
           'property_theft','property_weather','liability','injury','other'])[1 + i % 10], 'Seeded loss description ' || i,
           '{"address_line":"1 Main St","city":"Springfield","postal_code":"12345","country":"US"}'::jsonb, (i % 7 = 0),
           CASE WHEN i % 3 = 0 THEN 'PR-' || i END, (1000 + i % 9000)::numeric, 'USD', 'email', 'en',
           (ARRAY['intake','triage','assigned','waiting_on_customer','inspection','estimate','settlement','closed'])[1 + i % 8],
           CASE WHEN i % 8 >= 2 THEN (ARRAY['fast_track','standard','complex','special_investigations'])[1 + i % 4] END,
           md5('token' || i) || md5('salt' || i),
           '[{"type":"photos_of_damage","received":false},{"type":"repair_estimate","received":false},{"type":"police_report","received":true}]'::jsonb,
           ts, ts + interval '24 hours', ts + interval '1 minute', ts + interval '48 hours',
           CASE WHEN i % 8 <> 7 THEN clock_timestamp() + interval '30 days' + (i % 1000) * interval '1 minute' END, ts, ts,
           ts + interval '1 minute', ts + interval '1 day'
         FROM (SELECT i, ts, first_name, last_name, translate(first_name || '.' || last_name, 'áéíóúñ', 'aeioun') AS unaccent_name
               FROM (SELECT i, timestamptz '2024-01-01' + i * interval '30 seconds' AS ts,
                       ($3::text[])[1 + i % cardinality($3::text[])] AS first_name,
                       ($4::text[])[1 + (i / cardinality($3::text[])) % cardinality($4::text[])] AS last_name
                     FROM generate_series($1::int, $2::int) AS i) AS n) AS s`,
        [from, to, FIRST_NAMES, LAST_NAMES, EMAIL_DOMAINS],
      );
      const range = [`CLM-2019-${String(from).padStart(7, '0')}`, `CLM-2019-${String(to).padStart(7, '0')}`];
      await client.query(
        `INSERT INTO status_updates (update_id, claim_id, channel, stage, what_happened, what_happens_next, what_we_need_from_you,
           expected_next_update_by, cta, contact, portal_url, language, adequacy_score, adequacy_missing, created_at, created_by)
         SELECT gen_random_uuid(), id, 'email', 'intake', 'We received your claim ' || claim_number || '.',
           'A claims specialist will review it and contact you.', 'Please upload: photos of the damage.',
           (received_at + interval '2 days')::date, '{"label":"Upload your documents","url":"https://claims.example.com/upload"}'::jsonb,
           '{"name":"Claims team","email":"claims@example.com"}'::jsonb, NULL, 'en', 0.9, '["portal_url"]'::jsonb, received_at, 'system:intake'
         FROM claims WHERE claim_number BETWEEN $1 AND $2`,
        range,
      );
      // Settled as a claim of 2024 would be: the acknowledgement was delivered and an adjuster made first
      // contact (the moments the claim row above already carries, as the triggers of migration 0014 would set them). Without these every open seeded claim was two breaches to the deadline sweep, which then
      // announced ~1.75 M claim.sla_breached events (and audited each in the evidence service) in the
      // background of every later scenario of a full run.
      await client.query(
        `INSERT INTO deliveries (id, update_id, claim_id, channel, status, attempts, next_attempt_at, created_at, completed_at)
         SELECT gen_random_uuid(), su.update_id, su.claim_id, 'email', 'delivered', 1, su.created_at, su.created_at,
           su.created_at + interval '1 minute'
         FROM status_updates su JOIN claims c ON c.id = su.claim_id WHERE c.claim_number BETWEEN $1 AND $2`,
        range,
      );
      await client.query(
        `INSERT INTO status_updates (update_id, claim_id, channel, stage, what_happened, what_happens_next, what_we_need_from_you,
           expected_next_update_by, cta, contact, portal_url, language, adequacy_score, adequacy_missing, created_at, created_by)
         SELECT gen_random_uuid(), id, 'email', 'intake', 'Your adjuster called you about claim ' || claim_number || '.',
           'Your adjuster will arrange an inspection.', NULL, (received_at + interval '7 days')::date, NULL,
           '{"name":"Claims team","email":"claims@example.com"}'::jsonb, NULL, 'en', 0.9, '[]'::jsonb,
           received_at + interval '1 day', 'adjuster-seed'
         FROM claims WHERE claim_number BETWEEN $1 AND $2`,
        range,
      );
      await client.query(
        `INSERT INTO claimant_name_index (claim_id, tokens)
         SELECT id, ($3::text[])[1 + i % $4::int + $4::int * ((i / $4::int) % $5::int)]::smallint[]
         FROM (SELECT id, substr(claim_number, 10)::int AS i FROM claims WHERE claim_number BETWEEN $1 AND $2) AS seeded`,
        [...range, tokensByName, FIRST_NAMES.length, LAST_NAMES.length],
      );
      await client.query(
        `INSERT INTO claim_audit (id, claim_id, action, actor, reason, data, occurred_at)
         SELECT gen_random_uuid(), id, 'claim.created', 'claimant', 'first notice of loss',
           jsonb_build_object('claim_number', claim_number, 'loss_type', loss_type), received_at
         FROM claims WHERE claim_number BETWEEN $1 AND $2`,
        range,
      );
      await client.query('COMMIT');
      count += size;
      next = to + 1;
      log(`  claims table: ${count} rows`);
    }
    // What autovacuum does to a table after a bulk load (hint bits, visibility map, statistics), done
    // here because the machine's server may run without it (the CI machine's does), as pgbench vacuums
    // before it measures: the series then measures intake at this size, not the first reads of new rows.
    await client.query('VACUUM (ANALYZE) claims, status_updates, deliveries, claim_audit, claimant_name_index, claimant_name_sets');
    return count;
  } finally {
    await client.end();
  }
}

export async function countRows(databaseUrl: string, table: string): Promise<number> {
  const client = pgClient(databaseUrl);
  await client.connect();
  try {
    return Number((await client.query(`SELECT count(*) AS n FROM ${table}`)).rows[0].n);
  } finally {
    await client.end();
  }
}

/** The name index key the claims process at `databaseUrl` uses (KEY_VAULT=local, its key-encryption key in `dataDir`). */
async function serviceNameIndexKey(databaseUrl: string, dataDir: string): Promise<Buffer> {
  const db = createDatabase({ url: databaseUrl, poolMax: 1 });
  try {
    return await nameIndexKey(claimantPrivacyFor({ db, dataDir }, { PRIVACY_ENCRYPTION: true, KEY_VAULT: 'local' }), dataDir).on();
  } finally {
    await db.destroy();
  }
}
