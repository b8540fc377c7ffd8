import { problems } from '@platform/http';
import type { Knex } from '@platform/db';
import type { RetentionPolicy, RetentionPolicyRequest } from './retention-policy-schemas';
import { retentionPolicyStore } from './retention-policy-store';

/**
 * The retention policy as data: versions 1, 2, … published one after another, each naming who published it
 * and why; a publisher names the version they read (If-Match), so two cannot overwrite each other unseen.
 */
export const retentionPolicyService = () => (db: Knex) => {
  const store = retentionPolicyStore(db);
  return {
    current: () => store.current(),
    versions: () => store.versions(),

    /** `basedOn`: the version the publisher read; a newer one in force is 409. */
    async publish(request: RetentionPolicyRequest, basedOn: number, publishedBy: string): Promise<RetentionPolicy> {
      const stale = () =>
        problems.conflict('The retention policy changed since you read it (If-Match names an older version); read it again');
      const current = await store.current();
      if (current.version !== basedOn) throw stale();
      const published = await store.publish(basedOn + 1, request.retention_days, request.reason, publishedBy);
      if (!published) throw stale();
      return published;
    },
  };
};
