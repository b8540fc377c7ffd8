import { brandConfigRules, brandVariables, inProduction, variable } from '@platform/config';
import { objectStoreVariables, scanningVariables } from '@platform/files';
import { readServiceConfig } from '@platform/runtime';
import { checkWitnessSettings, witnessVariables } from '@platform/witness';
import { privacyConfigRules, privacyVariables } from './features/claimants';
import { parseAuthorityLimits } from './features/financials';

export const claimsVariables = {
  PORT: variable.int('Port of the claims service', 3001, 0, 65535),
  CLAIMS_EXCHANGE: variable.string('Topic exchange the claims service publishes to', 'claims.events'),
  ATTACHMENT_MAX_BYTES: variable.int('Largest accepted attachment, in bytes', 25 * 1024 * 1024, 1),
  ...scanningVariables,
  ...brandVariables,
  ...objectStoreVariables,
  PUBLIC_BASE_URL: variable.string('Base URL used in links handed to claimants and adjusters', 'http://localhost:8080'),
  SMTP_URL: variable.url('SMTP server for email status updates; unset logs deliveries instead', ['smtp', 'smtps']),
  SMTP_FROM: variable.string('From address of status update emails', 'claims@example.com'),
  SMS_WEBHOOK_URL: variable.url('Webhook that sends SMS status updates; unset logs deliveries instead', ['https', 'http']),
  OVERDUE_SWEEP_INTERVAL_MS: variable.int(
    'How often broken deadlines (acknowledgement, first contact, promised next update) are looked for and announced',
    60000,
    100,
  ),
  RETENTION_SWEEP_INTERVAL_MS: variable.int(
    'How often claimants whose every claim is past the retention policy (and on no legal hold) are looked for and erased',
    3600000,
    100,
  ),
  DEFAULT_UPDATE_CADENCE_DAYS: variable.int(
    'Days to the next promised update when a status update names no expected_next_update_by',
    5,
    1,
    90,
  ),
  ACCESS_LINK_LIMIT_PER_ADDRESS: variable.int(
    'Lost-link requests (POST /api/claims/public/access-links) one client address may make per window; more are 429',
    10,
    1,
  ),
  ACCESS_LINK_LIMIT_PER_CLAIM: variable.int('Lost-link requests naming one claim number per window, from any address; more are 429', 3, 1),
  ACCESS_LINK_WINDOW_SECONDS: variable.int(
    'Length of the lost-link rate-limit window, in seconds (counted in the database, across replicas)',
    3600,
    1,
    86400,
  ),
  ACCESS_LINK_REISSUES_PER_DAY: variable.int(
    'New access links one claim may be sent in 24 hours, whoever asks; further matching requests are answered alike and send nothing',
    3,
    1,
  ),
  IDEMPOTENCY_RETENTION_HOURS: variable.int('How long stored intake responses answer retries', 24, 1),
  CLAIMS_CONTACT_NAME: variable.string(
    'Contact name the portal shows a claimant while no adjuster is assigned to the claim; unset: "Claims team" in the claim\'s language',
  ),
  CLAIMS_CONTACT_PHONE: variable.string(
    'Contact phone (E.164) given to claimants in the acknowledgement and closing messages; unset: BRAND_CONTACT_PHONE',
  ),
  ...witnessVariables,
  CLAIMS_CONTACT_EMAIL: variable.string(
    'Contact email given to claimants in the acknowledgement and closing messages; unset: BRAND_CONTACT_EMAIL',
  ),
  EXPORT_INCLUDE_INTERNAL_NOTES: variable.bool(
    "Policy: whether a subject-access export holds the text of the claims' internal notes (off: notes are listed by id, author, topic and date only)",
    false,
  ),
  EXPORT_LINK_TTL_HOURS: variable.int(
    "How long a claimant's one-time export download link (or portal download token) stays valid, in hours",
    72,
    1,
    720,
  ),
  EXPORT_BUILD_INTERVAL_MS: variable.int(
    'How often queued subject-access exports (and builds a stopped process left) are looked for; a new request starts its build at once',
    30000,
    100,
  ),
  PAYMENT_AUTHORITY_LIMITS: variable.list(
    'Payment authority limits, per scope (`claims:write=5000`) or per user (`user:<sub>=250000`), comma-separated: a payment above ' +
      "the requester's limit (a user's own entry, else the highest of their scopes, else 0) waits for someone else whose limit covers it",
    'claims:write=5000,claims:decide=50000',
  ),
  ...privacyVariables,
};

export type ClaimsConfig = ReturnType<typeof readClaimsConfig>;

/** Whom the service's own messages tell the claimant to contact: the claims desk if configured, else the insurer's line. */
export function claimantContact(config: ClaimsConfig): { phone: string; email: string } {
  return {
    phone: config.CLAIMS_CONTACT_PHONE ?? config.BRAND_CONTACT_PHONE,
    email: config.CLAIMS_CONTACT_EMAIL ?? config.BRAND_CONTACT_EMAIL,
  };
}

export function readClaimsConfig(env: NodeJS.ProcessEnv = process.env) {
  return readServiceConfig(claimsVariables, env, [
    // Links in status updates reach claimants: the contract requires https for them, so production must serve https.
    inProduction(
      (c) =>
        !c.PUBLIC_BASE_URL.startsWith('https://') &&
        'PUBLIC_BASE_URL must be an https URL in production (it is used in links sent to claimants)',
    ),
    // A lost link is replaced only once the new one is handed to a channel: without one, nobody could get back in.
    inProduction(
      (c) =>
        !c.SMTP_URL &&
        !c.SMS_WEBHOOK_URL &&
        'SMTP_URL or SMS_WEBHOOK_URL must be set in production: new access links are sent through them',
    ),
    ...brandConfigRules,
    (c) => void checkWitnessSettings(c),
    (c) => void parseAuthorityLimits(c.PAYMENT_AUTHORITY_LIMITS),
    ...privacyConfigRules,
  ]);
}
