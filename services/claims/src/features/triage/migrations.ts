import { appendOnlySql, type Migration } from '@platform/db';
import { DEFAULT_TRIAGE_POLICY } from './default-policy';
import { QUEUES } from './triage-policy';

const sqlList = (values: readonly string[]) => values.map((value) => `'${value}'`).join(', ');

/**
 * Triage: versioned policies stored as data (at most one active), every run kept with its inputs,
 * their digest, the policy version and the actor; and the human escalations runs open.
 *
 * - `triage_policies`: `rules` are json-rules-engine rules; `parameters` the thresholds and word
 *   lists the facts are derived with; `score_bands` map a score to a queue. The default policy
 *   2026-11-01.1 is installed here; a new policy is a new row, never an edit.
 * - `triage_runs` (append-only): one row per run; `input_digest` is the SHA-256 of the RFC 8785
 *   canonical JSON of `{ policy_version, inputs }`.
 * - `escalations`: opened by a gated run; a claim has at most one open escalation (unique index);
 *   a decision is final (`status` decided, with decision, queue, rationale, decided_by, decided_at).
 */
export const triageMigration: Migration = {
  name: '0002_claims_triage',
  async up(db) {
    await db.raw(`
      CREATE TABLE triage_policies (
        version text PRIMARY KEY,
        active boolean NOT NULL DEFAULT false,
        description text NOT NULL,
        parameters jsonb NOT NULL,
        score_bands jsonb NOT NULL,
        rules jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp()
      );
      CREATE UNIQUE INDEX triage_policies_one_active_idx ON triage_policies (active) WHERE active;

      CREATE TABLE triage_runs (
        id uuid PRIMARY KEY,
        claim_id uuid NOT NULL REFERENCES claims (id),
        policy_version text NOT NULL REFERENCES triage_policies (version),
        input_digest text NOT NULL,
        inputs jsonb NOT NULL,
        score integer NOT NULL CHECK (score BETWEEN 0 AND 100),
        queue text NOT NULL CHECK (queue IN (${sqlList(QUEUES)})),
        rule_hits jsonb NOT NULL,
        escalation_gates jsonb NOT NULL,
        outcome text NOT NULL CHECK (outcome IN ('auto_routed', 'pending_human_decision')),
        escalation_id uuid,
        ran_by text NOT NULL,
        ran_at timestamptz NOT NULL DEFAULT clock_timestamp()
      );
      CREATE INDEX triage_runs_claim_idx ON triage_runs (claim_id, ran_at DESC);
      ${appendOnlySql('triage_runs')}

      CREATE TABLE escalations (
        id uuid PRIMARY KEY,
        claim_id uuid NOT NULL REFERENCES claims (id),
        triage_id uuid NOT NULL UNIQUE REFERENCES triage_runs (id),
        status text NOT NULL CHECK (status IN ('open', 'decided')),
        gates jsonb NOT NULL,
        proposed_queue text NOT NULL CHECK (proposed_queue IN (${sqlList(QUEUES)})),
        decision text CHECK (decision IN ('accept', 'override')),
        queue text CHECK (queue IN (${sqlList(QUEUES)})),
        rationale text,
        decided_by text,
        decided_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        CHECK ((status = 'open') = (decision IS NULL)),
        CHECK (status = 'open' OR (queue IS NOT NULL AND rationale IS NOT NULL AND decided_by IS NOT NULL AND decided_at IS NOT NULL))
      );
      CREATE UNIQUE INDEX escalations_one_open_idx ON escalations (claim_id) WHERE status = 'open';
      CREATE INDEX escalations_claim_idx ON escalations (claim_id, created_at DESC);
    `);
    await db('triage_policies').insert({
      version: DEFAULT_TRIAGE_POLICY.version,
      active: true,
      description: DEFAULT_TRIAGE_POLICY.description,
      parameters: JSON.stringify(DEFAULT_TRIAGE_POLICY.parameters),
      score_bands: JSON.stringify(DEFAULT_TRIAGE_POLICY.score_bands),
      rules: JSON.stringify(DEFAULT_TRIAGE_POLICY.rules),
    });
  },
};
