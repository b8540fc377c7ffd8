import type { FormEvent } from 'react';
import type { components } from '../../api/client';
import { humanise } from '../QueuePage';
import { hasScope, type WorkbenchSession } from '../session';
import { ErrorAlert, type ClaimFile } from './claim-file';
import { claimChanges, useClaimMutation } from './claim-api';
import { problemDetail } from '../../api/problem';

/** The triage outcome in words, following a lead's decision once there is one. */
export function triageOutcomeText(triage: NonNullable<ClaimFile['triage']>, escalation: ClaimFile['escalation']): string {
  if (escalation?.status === 'decided') return `decided by ${escalation.decided_by}: ${escalation.decision}`;
  return triage.outcome === 'pending_human_decision' ? 'waiting for a lead to decide' : 'routed automatically';
}

export function TriageSection({ file, session }: { file: ClaimFile; session: WorkbenchSession }) {
  const { claim, triage, escalation } = file;
  const run = useClaimMutation(claim.claim_id, async () => {
    const { error } = await claimChanges(claim.claim_id, session).runTriage();
    if (error) throw new Error(problemDetail(error, 'Triage could not run'));
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
      <ErrorAlert error={run.error} />
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
    const { error } = await claimChanges(claimId, session).decideEscalation(escalation.escalation_id, body);
    if (error) throw new Error(problemDetail(error, 'The decision could not be recorded'));
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
      <ErrorAlert error={decide.error} />
    </form>
  );
}
