import type { FromSchema } from '@platform/http';
import { eventKind, eventSchemaId } from '@platform/messaging';

const uuid = { type: 'string', format: 'uuid' } as const;

/** `data` of `evidence.binder_built`. */
export const binderBuiltData = {
  $id: eventSchemaId('evidence.binder_built', 1),
  type: 'object',
  additionalProperties: false,
  required: ['binder_id', 'run_id', 'final', 'sha256', 'evidence_count'],
  properties: {
    binder_id: uuid,
    run_id: uuid,
    final: { type: 'boolean', description: 'True only for an approved run; otherwise the binder is a draft' },
    sha256: { type: 'string', pattern: '^[0-9a-f]{64}$', description: 'Of the binder manifest' },
    evidence_count: { type: 'integer', minimum: 0 },
  },
} as const;

export const binderBuilt = eventKind<FromSchema<typeof binderBuiltData>>({
  type: 'evidence.binder_built',
  summary: "An examiner binder (a manifest of a run's evidence, with proofs) was built",
  schema: binderBuiltData,
});
