import { newestFirstPage, pageQuerySchema, type FromSchema } from '@platform/http';
import { NON_BLANK_TEXT_PATTERN } from '../../shared/claim-schemas';

export const NOTE_MAX_CHARS = 10000;

/** Body of POST …/notes. */
export const noteRequestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['body'],
  properties: {
    body: {
      type: 'string',
      minLength: 1,
      maxLength: NOTE_MAX_CHARS,
      pattern: NON_BLANK_TEXT_PATTERN,
      description: 'Plain text (links are made clickable on display), at most 10,000 characters',
    },
    topic: { type: 'string', minLength: 1, maxLength: 100, pattern: NON_BLANK_TEXT_PATTERN },
    corrects: { type: 'string', format: 'uuid', description: 'The note of this claim this one corrects (neither is ever edited)' },
  },
} as const;
export type NoteRequest = FromSchema<typeof noteRequestSchema>;

export const noteSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['note_id', 'claim_id', 'body', 'topic', 'corrects', 'author', 'created_at'],
  properties: {
    note_id: { type: 'string', format: 'uuid' },
    claim_id: { type: 'string', format: 'uuid' },
    body: { type: 'string' },
    topic: { type: ['string', 'null'] },
    corrects: { type: ['string', 'null'], format: 'uuid' },
    author: { type: 'string' },
    created_at: { type: 'string', format: 'date-time' },
  },
} as const;
export type Note = FromSchema<typeof noteSchema>;

export const notesQuerySchema = pageQuerySchema;
export type NotesQuery = FromSchema<typeof notesQuerySchema>;

export const notesPageSchema = newestFirstPage(noteSchema);
