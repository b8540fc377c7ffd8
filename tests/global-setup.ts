import findInfrastructure from '../packages/testing/src/global-setup';
import { ensureWebBuilt } from '../scripts/web-build';

/**
 * Jest global setup of the main suite: the infrastructure, and the web pages built once before any worker
 * starts — the browser journeys and the production build read web/dist, and two workers finding it stale at
 * once would each rebuild it under the other.
 */
export default async function globalSetup(): Promise<void> {
  ensureWebBuilt();
  await findInfrastructure();
}
