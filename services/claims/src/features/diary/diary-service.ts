import { randomUUID } from 'node:crypto';
import type { Principal } from '@platform/auth';
import type { Knex } from '@platform/db';
import { UUID_PATTERN, invalidCursor, problems } from '@platform/http';
import { recordClaimChange } from '../../shared/claim-change';
import { lockClaim, readClaim } from '../../shared/claim-state';
import { claimActivityChanged } from './diary-events';
import type { Activity, ActivityRequest, DiaryQuery, ReassignRequest } from './diary-schemas';

interface ActivityRow {
  id: string;
  claim_id: string;
  kind: Activity['kind'];
  subject: string;
  due_on: string;
  priority: Activity['priority'];
  assignee: string;
  created_by: string;
  created_at: Date;
  completed_by: string | null;
  completed_at: Date | null;
}

const select = (db: Knex) => db('claim_activities').select(db.raw(`claim_activities.*, to_char(due_on, 'YYYY-MM-DD') AS due_on`));

const activityOf = (row: ActivityRow): Activity => ({
  activity_id: row.id,
  claim_id: row.claim_id,
  kind: row.kind,
  subject: row.subject,
  due_on: row.due_on,
  priority: row.priority,
  assignee: row.assignee,
  created_by: row.created_by,
  created_at: new Date(row.created_at).toISOString(),
  completed_by: row.completed_by,
  completed_at: row.completed_at ? new Date(row.completed_at).toISOString() : null,
});

/** A claims-list condition: the claim has an open activity due before today (UTC), as my diary's `due=overdue` counts. */
export const HAS_OVERDUE_ACTIVITY = `EXISTS (SELECT 1 FROM claim_activities oa WHERE oa.claim_id = claims.id AND oa.completed_at IS NULL AND oa.due_on < (now() AT TIME ZONE 'UTC')::date)`;

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const encode = (row: ActivityRow) => Buffer.from(JSON.stringify({ d: row.due_on, i: row.id }), 'utf8').toString('base64url');
function decode(cursor: string): { d: string; i: string } {
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (typeof parsed?.d === 'string' && DAY.test(parsed.d) && typeof parsed?.i === 'string' && UUID_PATTERN.test(parsed.i)) return parsed;
  } catch {
    // falls through to the 400
  }
  throw invalidCursor();
}

/** The diary: activities on claims, created, completed and reassigned by people; each change on the timeline and the bus. */
export const diaryService = (exchange: string) => (db: Knex) => {
  async function publish(row: ActivityRow, change: 'created' | 'completed' | 'reassigned', actor: string) {
    await recordClaimChange(db, exchange, {
      claimId: row.claim_id,
      event: claimActivityChanged,
      actor,
      data: { activity_id: row.id, change, assignee: row.assignee, due_on: row.due_on },
    });
  }
  async function lockedActivity(claimId: string, activityId: string): Promise<ActivityRow> {
    const claim = await lockClaim(db, claimId);
    const row: ActivityRow | undefined = UUID_PATTERN.test(activityId)
      ? await select(db).where({ claim_id: claim.claim_id, id: activityId.toLowerCase() }).first()
      : undefined;
    if (!row) throw problems.notFound('No such activity on this claim');
    return row;
  }
  const reread = async (id: string): Promise<ActivityRow> => select(db).where({ id }).first();

  return {
    async create(claimId: string, request: ActivityRequest, caller: Principal): Promise<Activity> {
      const claim = await lockClaim(db, claimId);
      const id = randomUUID();
      await db('claim_activities').insert({
        id,
        claim_id: claim.claim_id,
        subject: request.subject,
        due_on: request.due_on,
        priority: request.priority,
        assignee: request.assignee ?? caller.sub,
        created_by: caller.sub,
      });
      const row = await reread(id);
      await publish(row, 'created', caller.sub);
      return activityOf(row);
    },

    async complete(claimId: string, activityId: string, caller: Principal): Promise<Activity> {
      const found = await lockedActivity(claimId, activityId);
      if (found.completed_at !== null) throw problems.conflict('The activity is already completed');
      await db('claim_activities')
        .where({ id: found.id })
        .update({ completed_by: caller.sub, completed_at: db.raw('clock_timestamp()') });
      const row = await reread(found.id);
      await publish(row, 'completed', caller.sub);
      return activityOf(row);
    },

    async reassign(claimId: string, activityId: string, request: ReassignRequest, caller: Principal): Promise<Activity> {
      const found = await lockedActivity(claimId, activityId);
      if (found.completed_at !== null) throw problems.conflict('The activity is completed');
      if (found.assignee === request.assignee) return activityOf(found);
      await db('claim_activities').where({ id: found.id }).update({ assignee: request.assignee });
      const row = await reread(found.id);
      await publish(row, 'reassigned', caller.sub);
      return activityOf(row);
    },

    /** Every activity of one claim: the open ones earliest due first, then the completed ones, latest completed first. */
    async ofClaim(claimId: string): Promise<Activity[]> {
      const claim = await readClaim(db, claimId);
      const rows: ActivityRow[] = await select(db)
        .where({ claim_id: claim.claim_id })
        .orderByRaw('completed_at IS NOT NULL, completed_at DESC, claim_activities.due_on, id');
      return rows.map(activityOf);
    },

    /** The caller's open activities across claims, earliest due first, keyset-paged on (due_on, id). */
    async myDiary(query: DiaryQuery, caller: Principal) {
      const limit = query.limit ?? 25;
      const after = query.cursor === undefined ? undefined : decode(query.cursor);
      const today = "(now() AT TIME ZONE 'UTC')::date";
      const rows: ActivityRow[] = await select(db)
        .where({ assignee: caller.sub })
        .whereNull('completed_at')
        .modify((q) => {
          if (query.due === 'overdue') q.whereRaw(`due_on < ${today}`);
          if (query.due === 'today') q.whereRaw(`due_on = ${today}`);
          if (query.due === 'week') q.whereRaw(`due_on BETWEEN ${today} AND ${today} + 6`);
          if (after) q.whereRaw('(due_on, id) > (?::date, ?::uuid)', [after.d, after.i]);
        })
        .orderBy([{ column: 'claim_activities.due_on' }, { column: 'id' }])
        .limit(limit + 1);
      const page = rows.slice(0, limit);
      return { items: page.map(activityOf), next_cursor: rows.length > limit ? encode(page[page.length - 1]) : null };
    },
  };
};
