import type { EventCatalog } from '@platform/messaging';
import { claimAdjusterKitGenerated } from './features/adjuster-kits/adjuster-kits-events';
import { claimAssigneeChanged } from './features/assignment/assignment-events';
import { claimAttachmentAdded, claimAttachmentScanned } from './features/attachments/attachments-events';
import { claimSlaBreached, claimUpdateOverdue } from './features/deadlines/deadlines-events';
import {
  claimPaymentDecided,
  claimPaymentRequested,
  claimPaymentVoided,
  claimReserveChanged,
} from './features/financials/financials-events';
import { claimActivityChanged } from './features/diary/diary-events';
import { claimActivityOverdue } from './features/diary/diary-overdue';
import { claimNoteAdded } from './features/notes/notes-events';
import { claimContactRecorded } from './features/contacts/contacts-events';
import { claimCreated } from './features/intake/intake-events';
import { claimClosed, claimStatusUpdated } from './features/status-updates/status-updates-events';
import { claimEscalationDecided, claimTriaged } from './features/triage/triage-events';
import { claimWithdrawn } from './features/withdrawal/withdrawal-events';
import { witnessConsistencyFailed } from './features/witness/witness-events';
import { CLAIMS_EVENT_SOURCE } from './shared/claim-change';

/** Every event the claims service publishes (the gateway's /asyncapi.json documents them). */
export const claimsEventCatalog: EventCatalog = {
  service: 'claims',
  exchange: 'claims.events',
  source: CLAIMS_EVENT_SOURCE,
  kinds: [
    claimCreated,
    claimAttachmentAdded,
    claimAttachmentScanned,
    claimTriaged,
    claimEscalationDecided,
    claimStatusUpdated,
    claimClosed,
    claimWithdrawn,
    claimAdjusterKitGenerated,
    claimAssigneeChanged,
    claimUpdateOverdue,
    claimSlaBreached,
    witnessConsistencyFailed,
    claimReserveChanged,
    claimPaymentRequested,
    claimPaymentDecided,
    claimPaymentVoided,
    claimNoteAdded,
    claimContactRecorded,
    claimActivityChanged,
    claimActivityOverdue,
  ],
};
