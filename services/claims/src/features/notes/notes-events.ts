import type { FromSchema } from '@platform/http';
import { eventKind, eventSchemaId } from '@platform/messaging';
import { claimEventProperties } from '../../shared/claim-change';

/** `data` of `claim.note_added`: the note's id and author (the actor) only, never its text or topic. */
export const claimNoteAddedData = {
  $id: eventSchemaId('claim.note_added', 1),
  type: 'object',
  additionalProperties: false,
  required: ['claim_id', 'actor', 'note_id', 'corrects'],
  properties: {
    ...claimEventProperties,
    note_id: { type: 'string', format: 'uuid' },
    corrects: { type: ['string', 'null'], format: 'uuid', description: 'The note it corrects, if any' },
  },
} as const;

export const claimNoteAdded = eventKind<FromSchema<typeof claimNoteAddedData>>({
  type: 'claim.note_added',
  summary: 'An internal note was added to a claim (its id and author; the text stays in the claims service)',
  schema: claimNoteAddedData,
});
