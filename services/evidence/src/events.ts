import type { EventCatalog } from '@platform/messaging';
import { auditBreakDetected, auditCheckpoint } from './features/audit/audit-events';
import { binderBuilt } from './features/binders/binders-events';
import { controlCreated, controlVersionAdded } from './features/controls/controls-events';
import { evidenceAdded, fileScanned } from './features/evidence/evidence-events';
import { runCreated, runDecided, runSubmitted } from './features/runs/runs-events';
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
    runSubmitted,
    runDecided,
    binderBuilt,
    auditCheckpoint,
    auditBreakDetected,
  ],
};
