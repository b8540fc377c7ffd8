import { variable } from '@platform/config';

/** Variables read by `pnpm start`, which runs the three processes in one. */
export const platformVariables = {
  GATEWAY_PORT: variable.int('Port of the gateway under `pnpm start`; 0 picks a free one', 8080, 0, 65535),
  PUBLIC_BASE_URL: variable.string(
    'Base URL of the links the platform hands out (intake acknowledgements, binder downloads) under `pnpm start`; unset means `http://localhost:$GATEWAY_PORT` (the port actually bound). Must be https in production',
  ),
  CLAIMS_PORT: variable.int('Port of the claims service under `pnpm start`', 3001, 0, 65535),
  EVIDENCE_PORT: variable.int('Port of the evidence service under `pnpm start`', 3002, 0, 65535),
  SERVICES_HOST: variable.string(
    "Interface the claims and evidence services bind to under `pnpm start`; loopback, so clients reach them only through the gateway (`HOST` is the gateway's)",
    '127.0.0.1',
  ),
  CLAIMS_DATABASE_URL: variable.url('PostgreSQL of the claims service under `pnpm start`; unset means embedded PGlite', [
    'postgres',
    'postgresql',
  ]),
  EVIDENCE_DATABASE_URL: variable.url('PostgreSQL of the evidence service under `pnpm start`; unset means embedded PGlite', [
    'postgres',
    'postgresql',
  ]),
  LOG_LEVEL: variable.string('pino log level of every process', 'info'),
};
