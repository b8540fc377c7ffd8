import { randomUUID } from 'node:crypto';
import type { Principal } from '@platform/auth';
import type { Knex } from '@platform/db';
import { cursorTimestampSql, decodeCursor, pageOf, problems } from '@platform/http';
import { recordClaimChange } from '../../shared/claim-change';
import { lockClaim, readClaim } from '../../shared/claim-state';
import { claimNoteAdded } from './notes-events';
import type { Note, NoteRequest, NotesQuery } from './notes-schemas';

interface NoteRow {
  id: string;
  claim_id: string;
  body: string;
  topic: string | null;
  corrects: string | null;
  author: string;
  created_at: Date;
  position: string;
}

const noteOf = (row: NoteRow): Note => ({
  note_id: row.id,
  claim_id: row.claim_id,
  body: row.body,
  topic: row.topic,
  corrects: row.corrects,
  author: row.author,
  created_at: new Date(row.created_at).toISOString(),
});

const columns = (db: Knex) => [
  'id',
  'claim_id',
  'body',
  'topic',
  'corrects',
  'author',
  'created_at',
  db.raw(`${cursorTimestampSql('created_at')} AS position`),
];

/** Internal notes: appended, never edited; the timeline and the event hold the id and author, never the text. */
export const notesService = (exchange: string) => (db: Knex) => ({
  async add(claimId: string, request: NoteRequest, caller: Principal): Promise<Note> {
    const claim = await lockClaim(db, claimId);
    const corrects = request.corrects?.toLowerCase() ?? null;
    if (corrects !== null && !(await db('claim_notes').where({ id: corrects, claim_id: claim.claim_id }).first('id'))) {
      throw problems.unprocessable('corrects names no note of this claim', {
        errors: [{ pointer: '/corrects', message: 'is not a note of this claim' }],
      });
    }
    const [row]: NoteRow[] = await db('claim_notes')
      .insert({
        id: randomUUID(),
        claim_id: claim.claim_id,
        body: request.body,
        topic: request.topic ?? null,
        corrects,
        author: caller.sub,
      })
      .returning(columns(db));
    await recordClaimChange(db, exchange, {
      claimId: claim.claim_id,
      event: claimNoteAdded,
      actor: caller.sub,
      data: { note_id: row.id, corrects },
    });
    return noteOf(row);
  },

  async list(claimId: string, query: NotesQuery) {
    const claim = await readClaim(db, claimId);
    const limit = query.limit ?? 25;
    const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
    const rows: NoteRow[] = await db('claim_notes')
      .where({ claim_id: claim.claim_id })
      .modify((q) => {
        if (after) q.whereRaw('(created_at, id) < (?::timestamptz, ?::uuid)', [after.created_at, after.id]);
      })
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .limit(limit + 1)
      .select(columns(db));
    return pageOf(rows, limit, noteOf, (row) => ({ created_at: row.position, id: row.id }));
  },
});
