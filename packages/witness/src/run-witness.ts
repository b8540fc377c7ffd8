import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { Knex } from '@platform/db';
import { startPeriodicTask } from '@platform/http';
import { formatWitnessVerifierKey } from './cosignature';
import { httpLogClient, witnessToken } from './log-client';
import { createWitness, type Witness } from './witness';
import { checkWitnessSettings, loadWitnessKey, type WitnessSettings } from './witness-config';
import type { Refusal } from './witness-store';

export interface RunningWitness {
  witness: Witness;
  /** The witness's C2SP vkey, for examiners to pin beside the log's key. */
  verifierKey: string;
  /** Polls now, or waits for the poll in flight (the first one starts with the witness). */
  pollNow(): Promise<void>;
  stop(): Promise<void>;
}

/** Starts the configured witness polling its log; undefined when WITNESS_EVIDENCE_URL is not set. */
export function startConfiguredWitness(
  settings: WitnessSettings & { WITNESS_POLL_INTERVAL_MS: number },
  deps: {
    db: Knex;
    dataDir: string;
    logger: Logger;
    metrics: Registry;
    onRefused?: (trx: Knex.Transaction, refusal: Refusal) => Promise<void>;
  },
): RunningWitness | undefined {
  if (!settings.WITNESS_EVIDENCE_URL) return undefined;
  checkWitnessSettings(settings);
  const privateKey = loadWitnessKey(settings, deps.dataDir, deps.logger);
  const token = witnessToken({
    token: settings.WITNESS_LOG_TOKEN,
    jwtSecret: settings.WITNESS_LOG_JWT_SECRET,
    witnessName: settings.WITNESS_NAME,
  });
  const witness = createWitness({
    name: settings.WITNESS_NAME,
    privateKey,
    logVerifierKey: settings.WITNESS_LOG_VERIFIER_KEY!,
    log: httpLogClient(settings.WITNESS_EVIDENCE_URL, token),
    db: deps.db,
    logger: deps.logger,
    metrics: deps.metrics,
    onRefused: deps.onRefused,
  });
  const verifierKey = formatWitnessVerifierKey(settings.WITNESS_NAME, privateKey);
  deps.logger.info({ origin: witness.origin, verifier_key: verifierKey, log: settings.WITNESS_EVIDENCE_URL }, 'witness started');
  const polling = startPeriodicTask({
    name: 'witness-poll',
    work: async () => void (await witness.witnessOnce()),
    intervalMs: settings.WITNESS_POLL_INTERVAL_MS,
    logger: deps.logger,
    metrics: deps.metrics,
  });
  return { witness, verifierKey, pollNow: () => polling.runNow(), stop: () => polling.stop() };
}
