import type { EventCatalog } from '@platform/messaging';
import { claimPersonalDataAccessed } from './features/access-log';
import { claimAdjusterKitGenerated } from './features/adjuster-kits';
import { claimAssigneeChanged } from './features/assignment';
import { claimAttachmentAdded, claimAttachmentScanned } from './features/attachments';
import { claimSlaBreached, claimUpdateOverdue } from './features/deadlines';
import { claimPaymentDecided, claimPaymentRequested, claimPaymentVoided, claimReserveChanged } from './features/financials';
import { claimActivityChanged, claimActivityOverdue } from './features/diary';
import { claimNoteAdded } from './features/notes';
import { claimLegalHoldPlaced, claimLegalHoldReleased } from './features/legal-holds';
import { claimClaimantErased } from './features/erasure';
import { claimContactRecorded } from './features/contacts';
import { claimCreated } from './features/intake';
import { claimClosed, claimStatusUpdated } from './features/status-updates';
import { claimEscalationDecided } from './features/escalations';
import { claimTriaged } from './features/triage';
import { claimWithdrawn } from './features/withdrawal';
import { witnessConsistencyFailed } from './features/witness';
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
    claimLegalHoldPlaced,
    claimLegalHoldReleased,
    claimPersonalDataAccessed,
    claimClaimantErased,
  ],
};
