import type { RunningServer } from '@platform/http';
import type { GatewayConfig } from './config';

/** Placeholder until the gateway lands: see the gateway issue. */
export async function startGateway(_config: GatewayConfig): Promise<RunningServer> {
  throw new Error('gateway not implemented yet');
}
