import type { EventCatalog } from '@platform/messaging';
import { auditBreakDetected, auditCheckpoint } from './features/audit';
import { binderBuilt } from './features/binders';
import { controlCreated, controlVersionAdded } from './features/controls';
import { evidenceAdded, evidenceRedacted, fileScanned } from './features/evidence';
import { runCreated, runDecided, runSubmitted } from './features/runs';
import { EVENT_SOURCE } from './shared/record-change';

/** Every event the evidence service publishes (the gateway's /asyncapi.json documents them). */
export const evidenceEventCatalog: EventCatalog = {
  service: 'evidence',
  exchange: 'evidence.events',
  source: EVENT_SOURCE,
  kinds: [
    controlCreated,
    controlVersionAdded,
    runCreated,
    evidenceAdded,
    fileScanned,
    evidenceRedacted,
    runSubmitted,
    runDecided,
    binderBuilt,
    auditCheckpoint,
    auditBreakDetected,
  ],
};
