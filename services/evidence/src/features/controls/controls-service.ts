import { randomUUID } from 'node:crypto';
import type { Knex } from '@platform/db';
import { problems } from '@platform/http';
import { recordChange } from '../../shared/record-change';
import { controlCreated, controlVersionAdded } from './controls-events';
import {
  KEY_PATTERN,
  type Control,
  type ControlDefinition,
  type ControlVersion,
  type CreateControlRequest,
  type CreateVersionRequest,
  type DueControl,
  type ListControlsQuery,
} from './controls-schemas';
import { controlsStore, definitionOf } from './controls-store';
import { currentPeriods } from './control-periods';

export interface ControlsDeps {
  exchange: string;
}

function encodeCursor(key: string): string {
  return Buffer.from(JSON.stringify({ k: key })).toString('base64url');
}

function decodeCursor(cursor: string): string {
  try {
    const { k } = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { k?: unknown };
    if (typeof k === 'string' && new RegExp(KEY_PATTERN).test(k)) return k;
  } catch {
    // fall through
  }
  throw problems.badRequest('cursor is not a cursor this API issued', [{ pointer: '/cursor', message: 'is invalid' }]);
}

/** Controls and their immutable versions. */
export const controlsService = (deps: ControlsDeps) => (db: Knex) => {
  const store = controlsStore(db);
  return {
    async create(request: CreateControlRequest, actor: string): Promise<Control> {
      const controlId = randomUUID();
      if (!(await store.insertControl({ control_id: controlId, key: request.key, created_by: actor }))) {
        const existing = await store.keyOwner(request.key);
        throw problems.conflict(`A control with key ${request.key} already exists`, existing ? { existing_control_id: existing } : {});
      }
      const controlVersionId = randomUUID();
      await store.insertVersion({
        control_version_id: controlVersionId,
        control_id: controlId,
        version: 1,
        created_by: actor,
        ...definitionOf(request as CreateControlRequest & ControlDefinition),
      });
      await recordChange(db, deps.exchange, {
        event: controlCreated,
        entity_type: 'control',
        entity_id: controlId,
        actor,
        data: { control_id: controlId, key: request.key, control_version_id: controlVersionId, version: 1 },
      });
      return (await store.find(controlId)) as Control;
    },

    async addVersion(controlId: string, changes: CreateVersionRequest, actor: string): Promise<Control> {
      const current = await store.find(controlId, { lock: true });
      if (!current) throw problems.notFound(`No control ${controlId}`);
      const version = current.current_version.version + 1;
      const controlVersionId = randomUUID();
      await store.insertVersion({
        control_version_id: controlVersionId,
        control_id: controlId,
        version,
        created_by: actor,
        ...definitionOf({ ...definitionOf(current), ...changes }),
      });
      await recordChange(db, deps.exchange, {
        event: controlVersionAdded,
        entity_type: 'control',
        entity_id: controlId,
        actor,
        data: {
          control_id: controlId,
          key: current.key,
          control_version_id: controlVersionId,
          version,
          changed_fields: Object.keys(changes).sort(),
        },
      });
      return (await store.find(controlId)) as Control;
    },

    async get(controlId: string): Promise<Control & { versions: ControlVersion[] }> {
      const control = await store.find(controlId);
      if (!control) throw problems.notFound(`No control ${controlId}`);
      return { ...control, versions: await store.versions(controlId) };
    },

    /** Controls whose current period at `now` has no run, by key (the period rules: control-periods.ts). */
    async due(query: ListControlsQuery, now: Date): Promise<{ items: DueControl[]; next_cursor: string | null }> {
      const limit = query.limit ?? 25;
      const rows = await store.due(currentPeriods(now), {
        limit: limit + 1,
        afterKey: query.cursor === undefined ? undefined : decodeCursor(query.cursor),
      });
      const items = rows.slice(0, limit);
      return { items, next_cursor: rows.length > limit ? encodeCursor(items[items.length - 1].key) : null };
    },

    async list(query: ListControlsQuery): Promise<{ items: Control[]; next_cursor: string | null }> {
      const limit = query.limit ?? 25;
      const rows = await store.list(limit + 1, query.cursor === undefined ? undefined : decodeCursor(query.cursor));
      const items = rows.slice(0, limit);
      return { items, next_cursor: rows.length > limit ? encodeCursor(items[items.length - 1].key) : null };
    },
  };
};
