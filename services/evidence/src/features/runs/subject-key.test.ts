import { subjectKey, subjectKeySql } from '@platform/auth';
import { createDatabase, type Knex } from '@platform/db';
import { adminUrl } from '@platform/testing';

const SUBJECTS = [
  'alice',
  'ALICE',
  'alic\u0065\u0301',
  'Alic\u00c9',
  'ａｌｉｃｅ',
  'ann-writer',
  'Ærøskøbing',
  '\u0410\u043b\u0438\u0441\u0430',
];

/** The decision compares subjects in SQL, the examiner desk's hint in JavaScript: both must find the same person. */
describe('the subject key on PostgreSQL and in JavaScript', () => {
  let db: Knex;
  beforeAll(() => {
    db = createDatabase({ url: adminUrl() });
  });
  afterAll(() => db.destroy());

  it.each(SUBJECTS)('agree on %s', async (subject) => {
    const { rows } = await db.raw<{ rows: { key: string }[] }>(`SELECT ${subjectKeySql('?::text')} AS key`, [subject]);
    expect(rows[0].key).toBe(subjectKey(subject));
  });

  it('finds a subject written wholly in look-alike letters the same person as the Latin one', async () => {
    const { rows } = await db.raw<{ rows: { same: boolean }[] }>(
      `SELECT ${subjectKeySql('?::text')} = ${subjectKeySql('?::text')} AS same`,
      ['\u0430\u0441\u0435', 'ACE'],
    );
    expect(rows[0].same).toBe(true);
  });
});
