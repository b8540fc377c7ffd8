import { claimsService, readClaimsConfig } from '@platform/claims';
import { evidenceService, readEvidenceConfig } from '@platform/evidence';
import { mergeDocuments } from '../gateway/src/api-documents';
import { describeService } from '@platform/runtime';

/** Every OpenAPI document the platform serves, built in-process from the code (no server, database or broker). */
export async function platformDocuments(env: NodeJS.ProcessEnv = {}): Promise<{ claims: object; evidence: object; platform: object }> {
  const claimsConfig = readClaimsConfig(env);
  const evidenceConfig = readEvidenceConfig(env);
  const claims = await describeService(claimsService(claimsConfig), claimsConfig);
  const evidence = await describeService(evidenceService(evidenceConfig), evidenceConfig);
  const platform = mergeDocuments([
    { name: 'claims', document: claims },
    { name: 'evidence', document: evidence },
  ]);
  return { claims, evidence, platform };
}
