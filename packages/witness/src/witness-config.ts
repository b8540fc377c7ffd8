import { createPrivateKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';
import { ConfigError, variable } from '@platform/config';
import { parseVerifierKey } from '@platform/merkle';
import { formatWitnessVerifierKey } from './cosignature';

/** The witness's variables, read alike by the standalone witness and by a service that hosts one. */
export const witnessVariables = {
  WITNESS_EVIDENCE_URL: variable.url(
    'Base URL of the evidence service (or the gateway) whose audit log the witness cosigns; unset: no witness runs',
    ['http', 'https'],
  ),
  WITNESS_NAME: variable.string('The witness\'s name in its cosignature lines (no spaces or "+")', 'claims-platform-witness'),
  WITNESS_KEY: variable.string(
    'Ed25519 private key (PKCS#8 PEM or base64 DER) the witness cosigns with; generated into DATA_DIR in development',
  ),
  WITNESS_LOG_VERIFIER_KEY: variable.string(
    "The evidence log's C2SP verifier key (X-Audit-Verifier-Key of GET /api/evidence/audit/public-key); required with WITNESS_EVIDENCE_URL",
  ),
  WITNESS_LOG_TOKEN: variable.string('Bearer token (scopes audit:read audit:witness) the witness presents to the evidence service'),
  WITNESS_LOG_JWT_SECRET: variable.string(
    '…or the HS256 secret it mints such a token with (development and tests, where the services accept them)',
  ),
  WITNESS_POLL_INTERVAL_MS: variable.int('How often the witness fetches the latest checkpoint', 60000, 100),
};

export interface WitnessSettings {
  WITNESS_EVIDENCE_URL?: string;
  WITNESS_NAME: string;
  WITNESS_KEY?: string;
  WITNESS_LOG_VERIFIER_KEY?: string;
  WITNESS_LOG_TOKEN?: string;
  WITNESS_LOG_JWT_SECRET?: string;
  NODE_ENV: string;
}

/** Start-up checks of a configured witness: the log key pinned, credentials, a key in production. */
export function checkWitnessSettings(settings: WitnessSettings): void {
  if (!settings.WITNESS_EVIDENCE_URL) return;
  if (!settings.WITNESS_LOG_VERIFIER_KEY || !parseVerifierKey(settings.WITNESS_LOG_VERIFIER_KEY)) {
    throw new ConfigError("WITNESS_LOG_VERIFIER_KEY must be the evidence log's C2SP verifier key when WITNESS_EVIDENCE_URL is set");
  }
  if (!settings.WITNESS_LOG_TOKEN && !settings.WITNESS_LOG_JWT_SECRET)
    throw new ConfigError('WITNESS_LOG_TOKEN or WITNESS_LOG_JWT_SECRET must be set when WITNESS_EVIDENCE_URL is set');
  if (/[\s+]/u.test(settings.WITNESS_NAME) || settings.WITNESS_NAME === '')
    throw new ConfigError('WITNESS_NAME must be non-empty, without spaces or "+"');
  if (settings.NODE_ENV === 'production' && !settings.WITNESS_KEY) throw new ConfigError('WITNESS_KEY must be set in production');
}

function parseWitnessKey(value: string): KeyObject {
  try {
    const key = value.includes('-----BEGIN')
      ? createPrivateKey(value.replace(/\\n/g, '\n'))
      : createPrivateKey({ key: Buffer.from(value.trim(), 'base64'), format: 'der', type: 'pkcs8' });
    if (key.asymmetricKeyType !== 'ed25519') throw new Error(`an ${key.asymmetricKeyType} key`);
    return key;
  } catch (error) {
    throw new ConfigError(`WITNESS_KEY is not an Ed25519 PKCS#8 private key (PEM or base64 DER): ${(error as Error).message}`);
  }
}

/**
 * WITNESS_KEY, or in development a key kept in `<dataDir>/witness/witness-key.pem` (made on first start; its
 * verifier key is logged so it can be handed to examiners).
 */
export function loadWitnessKey(settings: WitnessSettings, dataDir: string, logger: Logger): KeyObject {
  if (settings.WITNESS_KEY) return parseWitnessKey(settings.WITNESS_KEY);
  const file = path.join(dataDir, 'witness', 'witness-key.pem');
  try {
    return parseWitnessKey(readFileSync(file, 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(path.dirname(file), { recursive: true });
  try {
    writeFileSync(file, generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const key = parseWitnessKey(readFileSync(file, 'utf8'));
  logger.warn(
    { file, verifier_key: formatWitnessVerifierKey(settings.WITNESS_NAME, key) },
    'generated a development witness key; set WITNESS_KEY in production',
  );
  return key;
}
