import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { describeDocumentType } from '@platform/claims-domain';
import { useEffect, useState, type FormEvent } from 'react';
import { useParams } from 'react-router-dom';
import { api, type components } from '../api/client';
import { DeadlineBadge } from './deadline';
import { humanise } from './QueuePage';
import { authHeader, hasScope, type WorkbenchSession } from './session';
import {
  draftToRequest,
  emptyDraft,
  refusalOfProblem,
  stageTemplate,
  StatusUpdateComposer,
  type ComposedClosing,
  type ComposedUpdate,
  type ServerRefusal,
} from './StatusUpdateComposer';
import { usePageTitle, useSession } from './WorkbenchSession';

type ClaimFile = components['schemas']['GetClaimResponse'];
type Problem = { detail?: string; title?: string };

const problemText = (problem: Problem | undefined, fallback: string) => problem?.detail ?? problem?.title ?? fallback;

function useClaimFile(claimId: string, session: WorkbenchSession) {
  return useQuery({
    queryKey: ['claim', claimId],
    queryFn: async () => {
      const { data, error } = await api.GET('/api/claims/claims/{id}', { params: { path: { id: claimId } }, headers: authHeader(session) });
      if (error) throw new Error(problemText(error, 'The claim could not be loaded'));
      return data;
    },
  });
}

/** /workbench/claims/:claimId — everything about one claim, and what an adjuster does with it. */
export function ClaimPage() {
  const { claimId = '' } = useParams();
  const session = useSession();
  const file = useClaimFile(claimId, session);
  // Kept above the composer: closing unmounts the composer, and the word that the claim closed must stay.
  const [outcome, setOutcome] = useState<string | null>(null);
  usePageTitle(file.data ? `Claim ${file.data.claim.claim_number}` : 'Claim');
  if (file.error)
    return (
      <main>
        <h1>Claim</h1>
        <p className="error" role="alert">
          {file.error.message}
        </p>
      </main>
    );
  if (!file.data)
    return (
      <main>
        <h1>Claim</h1>
        <p role="status">Loading…</p>
      </main>
    );
  const { claim } = file.data;
  return (
    <main className="claim-page">
      <h1>Claim {claim.claim_number}</h1>
      <ClaimSummary file={file.data} />
      <AssignmentSection file={file.data} session={session} />
      <TriageSection file={file.data} session={session} />
      {claim.stage !== 'closed' && <ComposerSection file={file.data} session={session} onOutcome={setOutcome} />}
      {claim.stage === 'closed' && hasScope(session, 'claims:decide') && (
        <ReopenSection file={file.data} session={session} onOutcome={setOutcome} />
      )}
      <p role="status" className="status-message">
        {outcome}
      </p>
      <DeliveriesSection claimId={claim.claim_id} session={session} />
      <AttachmentsSection file={file.data} session={session} />
      <AdjusterKitSection claimId={claim.claim_id} session={session} />
      <TimelineSection file={file.data} />
    </main>
  );
}

/** Where the claim is queued: the claim's queue, else what triage found (a lead's decision pending), else not triaged. */
export function queueText(file: Pick<ClaimFile, 'claim' | 'triage' | 'escalation'>): string {
  if (file.claim.queue) return humanise(file.claim.queue);
  if (file.escalation?.status === 'open') return `Waiting for a lead (proposed ${humanise(file.escalation.proposed_queue)})`;
  if (file.triage) return humanise(file.triage.queue);
  return 'Not triaged';
}

/** First contact is made by the first status update a person sent (the deadlines feature's trigger ignores system:* updates). */
const firstContactMade = (file: ClaimFile) => file.status_updates.some((update) => !update.created_by.startsWith('system:'));

function locationText(location: ClaimFile['claim']['loss']['location']): string {
  if (!location) return 'Not given';
  return [location.address_line, location.postal_code, location.city, location.country].filter(Boolean).join(', ');
}

function ClaimSummary({ file }: { file: ClaimFile }) {
  const { claim } = file;
  return (
    <section aria-labelledby="claim-summary">
      <h2 id="claim-summary">Claim file</h2>
      <dl className="facts">
        <dt>Stage</dt>
        <dd data-testid="claim-stage">{humanise(claim.stage)}</dd>
        <dt>Claimant</dt>
        <dd data-testid="claimant-contact">
          {claim.claimant.name} · {[claim.claimant.email, claim.claimant.phone].filter(Boolean).join(' · ') || 'no contact given'} (prefers{' '}
          {claim.preferred_channel}, language {claim.language}
          {claim.time_zone ? `, ${claim.time_zone}` : ''})
        </dd>
        <dt>Policy</dt>
        <dd data-testid="claim-policy">{claim.policy_number}</dd>
        <dt>Loss</dt>
        <dd>
          {humanise(claim.loss.type)} on {claim.loss.date}: {claim.loss.description}
        </dd>
        <dt>Loss location</dt>
        <dd data-testid="loss-location">{locationText(claim.loss.location)}</dd>
        <dt>Injury</dt>
        <dd data-testid="injury">{claim.injuries === null ? 'Not said' : claim.injuries ? 'Yes, someone was injured' : 'No'}</dd>
        <dt>Estimated amount</dt>
        <dd data-testid="estimated-amount">
          {claim.estimated_amount ? `${claim.estimated_amount.amount} ${claim.estimated_amount.currency}` : 'Not given'}
        </dd>
        <dt>Queue</dt>
        <dd data-testid="claim-queue">{queueText(file)}</dd>
        <dt>Next update due</dt>
        <dd>
          <DeadlineBadge due={claim.next_update_due} />
        </dd>
        {/* The first-contact deadline ends when the claim closes, or with the first update a person sent (the service's rule). */}
        {claim.stage !== 'closed' && (
          <>
            <dt>First contact</dt>
            <dd data-testid="first-contact-due">{firstContactMade(file) ? 'Made' : <DeadlineBadge due={claim.first_contact_due} />}</dd>
          </>
        )}
        {claim.closing && (
          <>
            <dt>Closed</dt>
            <dd data-testid="closing-reason">
              {claim.closing.reason}
              {claim.closing.rationale ? ` — ${claim.closing.rationale}` : ''}
            </dd>
          </>
        )}
        <dt>Documents</dt>
        <dd>
          {claim.required_documents.map((doc) => `${describeDocumentType(doc.type)}: ${doc.received ? 'received' : 'missing'}`).join(' · ')}
        </dd>
      </dl>
    </section>
  );
}

/** A refusal whose fields the composer shows next to each field. */
class RefusedError extends Error {
  constructor(readonly refusal: ServerRefusal) {
    super(refusal.detail);
  }
}

function useClaimMutation<T>(claimId: string, run: (input: T) => Promise<void>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: run, onSuccess: () => queryClient.invalidateQueries({ queryKey: ['claim', claimId] }) });
}

function AssignmentSection({ file, session }: { file: ClaimFile; session: WorkbenchSession }) {
  const { claim } = file;
  const change = useClaimMutation(claim.claim_id, async (assignee: string | null) => {
    const { error } = await api.PUT('/api/claims/claims/{id}/assignee', {
      params: { path: { id: claim.claim_id }, header: { 'If-Match': `"${claim.version}"` } },
      headers: authHeader(session),
      body: { assignee },
    });
    if (error) throw new Error(problemText(error, 'The assignee could not be changed'));
  });
  const mine = claim.assignee === session.sub;
  return (
    <section aria-labelledby="assignment">
      <h2 id="assignment">Assignment</h2>
      <p data-testid="assignee">{claim.assignee ? `Assigned to ${mine ? 'you' : claim.assignee}` : 'Nobody has taken this claim'}</p>
      {!claim.assignee && claim.stage !== 'closed' && (
        <button type="button" onClick={() => change.mutate(session.sub)} disabled={change.isPending}>
          Take this claim
        </button>
      )}
      {claim.assignee && (mine || hasScope(session, 'claims:decide')) && (
        <button type="button" className="secondary" onClick={() => change.mutate(null)} disabled={change.isPending}>
          Release
        </button>
      )}
      {change.error && (
        <p className="error" role="alert">
          {change.error.message}
        </p>
      )}
    </section>
  );
}

/** The triage outcome in words, following a lead's decision once there is one. */
export function triageOutcomeText(triage: NonNullable<ClaimFile['triage']>, escalation: ClaimFile['escalation']): string {
  if (escalation?.status === 'decided') return `decided by ${escalation.decided_by}: ${escalation.decision}`;
  return triage.outcome === 'pending_human_decision' ? 'waiting for a lead to decide' : 'routed automatically';
}

function TriageSection({ file, session }: { file: ClaimFile; session: WorkbenchSession }) {
  const { claim, triage, escalation } = file;
  const run = useClaimMutation(claim.claim_id, async () => {
    const { error } = await api.POST('/api/claims/claims/{id}/run-triage', {
      params: { path: { id: claim.claim_id } },
      headers: authHeader(session),
    });
    if (error) throw new Error(problemText(error, 'Triage could not run'));
  });
  return (
    <section aria-labelledby="triage">
      <h2 id="triage">Triage</h2>
      {triage ? (
        <>
          <p data-testid="triage-outcome">
            Score {triage.score}, queue {humanise(triage.queue)}, {triageOutcomeText(triage, escalation)} (policy {triage.policy_version})
          </p>
          <h3>Rules that matched</h3>
          <ul>
            {triage.rule_hits.map((hit) => (
              <li key={hit.rule_id}>
                {hit.description} <span className="notice">({hit.effect})</span>
              </li>
            ))}
          </ul>
          {triage.escalation_gates.length > 0 && (
            <>
              <h3>Escalation gates</h3>
              <ul>
                {triage.escalation_gates.map((gate) => (
                  <li key={gate.gate}>
                    {humanise(gate.gate)}: {gate.reason}
                  </li>
                ))}
              </ul>
            </>
          )}
        </>
      ) : (
        <p>Not triaged yet.</p>
      )}
      {claim.stage !== 'closed' && (
        <button type="button" onClick={() => run.mutate(undefined)} disabled={run.isPending}>
          Run triage
        </button>
      )}
      {run.error && (
        <p className="error" role="alert">
          {run.error.message}
        </p>
      )}
      {escalation && hasScope(session, 'claims:decide') && (
        <EscalationSection claimId={claim.claim_id} escalation={escalation} session={session} />
      )}
      {escalation && !hasScope(session, 'claims:decide') && (
        <p data-testid="escalation-status">
          Escalation {escalation.status === 'open' ? 'waiting for a lead' : `decided: ${escalation.decision}`}
        </p>
      )}
    </section>
  );
}

function EscalationSection({
  claimId,
  escalation,
  session,
}: {
  claimId: string;
  escalation: NonNullable<ClaimFile['escalation']>;
  session: WorkbenchSession;
}) {
  const decide = useClaimMutation(claimId, async (body: components['schemas']['DecideEscalationRequest']) => {
    const { error } = await api.POST('/api/claims/claims/{id}/escalations/{escalation_id}/decision', {
      params: { path: { id: claimId, escalation_id: escalation.escalation_id } },
      headers: authHeader(session),
      body,
    });
    if (error) throw new Error(problemText(error, 'The decision could not be recorded'));
  });
  if (escalation.status === 'decided') {
    return (
      <div className="escalation" data-testid="escalation-decision">
        <h3>Escalation decided</h3>
        <p>
          {escalation.decision === 'accept' ? 'Accepted' : 'Overridden'} by {escalation.decided_by}: queue{' '}
          {escalation.queue ? humanise(escalation.queue) : '—'}. Rationale: {escalation.rationale}
        </p>
      </div>
    );
  }
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const decision = form.get('decision') === 'override' ? 'override' : 'accept';
    decide.mutate({
      decision,
      rationale: String(form.get('rationale')),
      ...(decision === 'override' ? { queue: form.get('queue') as 'standard' } : {}),
    });
  };
  return (
    <form className="escalation" onSubmit={onSubmit} aria-labelledby="escalation-heading">
      <h3 id="escalation-heading">Decide the escalation (proposed queue: {humanise(escalation.proposed_queue)})</h3>
      <label htmlFor="escalation-decision">Decision</label>
      <select id="escalation-decision" name="decision" defaultValue="accept">
        <option value="accept">Accept the proposed queue</option>
        <option value="override">Override</option>
      </select>
      <label htmlFor="escalation-queue">Queue when overriding</label>
      <select id="escalation-queue" name="queue" defaultValue="standard">
        {['fast_track', 'standard', 'complex', 'special_investigations'].map((queue) => (
          <option key={queue} value={queue}>
            {humanise(queue)}
          </option>
        ))}
      </select>
      <label htmlFor="escalation-rationale">Rationale</label>
      <textarea id="escalation-rationale" name="rationale" required minLength={1} />
      <button type="submit" disabled={decide.isPending}>
        Record decision
      </button>
      {decide.error && (
        <p className="error" role="alert">
          {decide.error.message}
        </p>
      )}
    </form>
  );
}

function ComposerSection({
  file,
  session,
  onOutcome: setSent,
}: {
  file: ClaimFile;
  session: WorkbenchSession;
  onOutcome: (outcome: string) => void;
}) {
  const { claim } = file;
  const queryClient = useQueryClient();
  const send = useClaimMutation(claim.claim_id, async (body: ComposedUpdate) => {
    const { data, error } = await api.POST('/api/claims/claims/{id}/status-updates', {
      params: { path: { id: claim.claim_id } },
      headers: authHeader(session),
      body,
    });
    if (error) throw new RefusedError(refusalOfProblem(error, 'The update could not be sent'));
    setSent(`Update sent (adequacy ${Math.round(data.adequacy_score * 100)}%)`);
    await queryClient.invalidateQueries({ queryKey: ['deliveries', claim.claim_id] });
  });
  // Closing is its own operation (claims:decide): the reason, and the status update into closed that tells the claimant.
  const close = useClaimMutation(claim.claim_id, async (body: ComposedClosing) => {
    const { data, error } = await api.POST('/api/claims/claims/{id}/closing', {
      params: { path: { id: claim.claim_id } },
      headers: authHeader(session),
      body,
    });
    if (error) throw new RefusedError(refusalOfProblem(error, 'The claim could not be closed'));
    setSent(`Claim closed as ${data.reason} (update adequacy ${Math.round(data.status_update.adequacy_score * 100)}%)`);
    await queryClient.invalidateQueries({ queryKey: ['deliveries', claim.claim_id] });
  });
  // The link the platform already sent the claimant (intake's acknowledgement): the API takes it back whatever its
  // scheme, being on the platform's own PUBLIC_BASE_URL (CONTRACT §3), so a development platform's http link is kept.
  const portalUrl = file.status_updates.find((update) => update.portal_url)?.portal_url ?? '';
  const contact = [...file.status_updates].reverse().find((update) => update.contact)?.contact ?? null;
  const refusal = (failure: Error | null): ServerRefusal | null =>
    failure ? (failure instanceof RefusedError ? failure.refusal : { detail: failure.message, fields: {} }) : null;
  return (
    <section>
      <StatusUpdateComposer
        key={claim.version}
        initial={emptyDraft(claim.stage, claim.language, portalUrl, contact)}
        onSend={(body) => send.mutate(body)}
        onClose={(body) => close.mutate(body)}
        sending={send.isPending || close.isPending}
        error={refusal(send.error) ?? refusal(close.error)}
      />
    </section>
  );
}

const REOPEN_STAGES = ['assigned', 'inspection', 'estimate', 'waiting_on_customer', 'settlement'] as const;

/**
 * A lead (claims:decide) reopens a closed claim into a working stage: a status update into that stage
 * (CONTRACT §3), whose "what happened" is the reason the claimant is told; the timeline records who reopened it.
 */
function ReopenSection({ file, session, onOutcome }: { file: ClaimFile; session: WorkbenchSession; onOutcome: (outcome: string) => void }) {
  const { claim } = file;
  const reopen = useClaimMutation(claim.claim_id, async (body: ComposedUpdate) => {
    const { error } = await api.POST('/api/claims/claims/{id}/status-updates', {
      params: { path: { id: claim.claim_id } },
      headers: authHeader(session),
      body,
    });
    if (error) throw new Error(problemText(error, 'The claim could not be reopened'));
    onOutcome(`Claim reopened into ${humanise(body.stage)}`);
  });
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const stage = String(form.get('stage')) as (typeof REOPEN_STAGES)[number];
    const portalUrl = file.status_updates.find((update) => update.portal_url)?.portal_url ?? '';
    const contact = [...file.status_updates].reverse().find((update) => update.contact)?.contact ?? null;
    const draft = emptyDraft(stage, claim.language, portalUrl, contact);
    reopen.mutate(
      draftToRequest({
        ...draft,
        channel: claim.preferred_channel,
        what_happened: String(form.get('reason')),
        what_happens_next: stageTemplate(stage, claim.language),
      }),
    );
  };
  return (
    <form className="composer" onSubmit={onSubmit} aria-labelledby="reopen-heading">
      <h2 id="reopen-heading">Reopen the claim</h2>
      <label htmlFor="reopen-stage">Reopen into</label>
      <select id="reopen-stage" name="stage" defaultValue="assigned">
        {REOPEN_STAGES.map((stage) => (
          <option key={stage} value={stage}>
            {humanise(stage)}
          </option>
        ))}
      </select>
      <label htmlFor="reopen-reason">Reason (told to the claimant)</label>
      <textarea id="reopen-reason" name="reason" required minLength={1} />
      <button type="submit" disabled={reopen.isPending}>
        Reopen the claim
      </button>
      {reopen.error && (
        <p className="error" role="alert">
          {reopen.error.message}
        </p>
      )}
    </form>
  );
}

function DeliveriesSection({ claimId, session }: { claimId: string; session: WorkbenchSession }) {
  const deliveries = useQuery({
    queryKey: ['deliveries', claimId],
    queryFn: async () => {
      const { data, error } = await api.GET('/api/claims/claims/{id}/deliveries', {
        params: { path: { id: claimId } },
        headers: authHeader(session),
      });
      if (error) throw new Error(problemText(error, 'The deliveries could not be loaded'));
      return data.items;
    },
  });
  return (
    <section aria-labelledby="deliveries">
      <h2 id="deliveries">Deliveries</h2>
      {deliveries.error && <p className="error">{deliveries.error.message}</p>}
      <ul>
        {deliveries.data?.map((delivery) => (
          <li key={delivery.delivery_id}>
            {humanise(delivery.kind)} by {delivery.channel}:{' '}
            <span className={`badge badge--delivery-${delivery.status}`}>{delivery.status}</span>
            {delivery.attempts > 0 && ` after ${delivery.attempts} attempt(s)`}
            {delivery.last_error && <span className="error"> — {delivery.last_error}</span>}
          </li>
        ))}
      </ul>
      {deliveries.data?.length === 0 && <p>No messages yet.</p>}
    </section>
  );
}

/** Fetches a protected file with the token and hands back an object URL the page may show (the CSP allows blob:). */
async function fetchObjectUrl(path: string, session: WorkbenchSession): Promise<string> {
  const response = await fetch(path, { headers: authHeader(session) });
  if (!response.ok) throw new Error(`The file could not be fetched (${response.status})`);
  return URL.createObjectURL(await response.blob());
}

function AttachmentPreview({
  claimId,
  attachment,
  session,
}: {
  claimId: string;
  attachment: ClaimFile['attachments'][number];
  session: WorkbenchSession;
}) {
  const [url, setUrl] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const contentPath = `/api/claims/claims/${claimId}/attachments/${attachment.attachment_id}/content`;
  const previewable = attachment.content_type.startsWith('image/') || attachment.content_type === 'application/pdf';
  useEffect(
    () => () => {
      if (url) URL.revokeObjectURL(url);
    },
    [url],
  );
  return (
    <li>
      {attachment.filename} ({describeDocumentType(attachment.document_type)}, {attachment.scan_status}){' '}
      {previewable && !url && (
        <button
          type="button"
          className="secondary"
          onClick={() => fetchObjectUrl(contentPath, session).then(setUrl, (e: Error) => setError(e.message))}
        >
          Preview {attachment.filename}
        </button>
      )}
      <button
        type="button"
        className="secondary"
        onClick={() =>
          fetchObjectUrl(contentPath, session).then(
            (objectUrl) => downloadObjectUrl(objectUrl, attachment.filename),
            (e: Error) => setError(e.message),
          )
        }
      >
        Download {attachment.filename}
      </button>
      {url && attachment.content_type === 'application/pdf' && (
        <iframe src={url} title={`Preview of ${attachment.filename}`} className="preview-frame" />
      )}
      {url && attachment.content_type.startsWith('image/') && (
        <img src={url} alt={`Preview of ${attachment.filename}`} className="preview-image" />
      )}
      {error && <span className="error"> {error}</span>}
    </li>
  );
}

function downloadObjectUrl(url: string, filename: string) {
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

function AttachmentsSection({ file, session }: { file: ClaimFile; session: WorkbenchSession }) {
  return (
    <section aria-labelledby="attachments">
      <h2 id="attachments">Attachments</h2>
      {file.attachments.length === 0 ? (
        <p>No attachments.</p>
      ) : (
        <ul>
          {file.attachments.map((attachment) => (
            <AttachmentPreview key={attachment.attachment_id} claimId={file.claim.claim_id} attachment={attachment} session={session} />
          ))}
        </ul>
      )}
    </section>
  );
}

function AdjusterKitSection({ claimId, session }: { claimId: string; session: WorkbenchSession }) {
  const generate = useMutation({
    mutationFn: async () => {
      const { data, error } = await api.POST('/api/claims/claims/{id}/generate-adjuster-kit', {
        params: { path: { id: claimId } },
        headers: authHeader(session),
      });
      if (error) throw new Error(problemText(error, 'The kit could not be generated'));
      downloadObjectUrl(
        URL.createObjectURL(new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' })),
        `adjuster-kit-${data.kit_id}.json`,
      );
      return data;
    },
  });
  return (
    <section aria-labelledby="adjuster-kit">
      <h2 id="adjuster-kit">Adjuster kit</h2>
      <button type="button" onClick={() => generate.mutate()} disabled={generate.isPending}>
        Generate and download the adjuster kit
      </button>
      {generate.data && <p role="status">Kit generated {new Date(generate.data.generated_at).toLocaleString('en-GB')}</p>}
      {generate.error && (
        <p className="error" role="alert">
          {generate.error.message}
        </p>
      )}
    </section>
  );
}

function TimelineSection({ file }: { file: ClaimFile }) {
  return (
    <section aria-labelledby="timeline">
      <h2 id="timeline">Timeline</h2>
      <ol className="history">
        {[...file.timeline].reverse().map((entry) => (
          <li key={entry.audit_id}>
            <time dateTime={entry.occurred_at}>{new Date(entry.occurred_at).toLocaleString('en-GB')}</time> ·{' '}
            <strong>{entry.action}</strong> by {entry.actor}
            {entry.reason && ` — ${entry.reason}`}
          </li>
        ))}
      </ol>
    </section>
  );
}
