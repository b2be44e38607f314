/** What an operator may read: the job queue's dead letters. The admin role is ADMIN_USERS (docs/operations.md "Background work"). */
import { Injectable } from '@nestjs/common';
import { DomainError } from '../common/domain-error';
import type { Principal } from '../common/principal';
import { JobsConfig } from '../config/slices';
import { JobQueue } from '../jobs/job-queue';
import type { FailedJob } from '../jobs/job-queue';
import type { JobKind } from '../jobs/job-kinds';

@Injectable()
export class AdminService {
  private readonly admins: ReadonlySet<string>;

  constructor(
    private readonly jobs: JobQueue,
    config: JobsConfig,
  ) {
    this.admins = new Set((config.ADMIN_USERS ?? []).map((u) => u.toLowerCase()));
  }

  /** FORBIDDEN unless the caller has the admin role. */
  private requireAdmin(caller: Principal): void {
    if (!this.admins.has(caller.username.toLowerCase())) throw new DomainError('FORBIDDEN', 'the admin role (ADMIN_USERS) is needed');
  }

  async failedJobs(caller: Principal, query: { kind?: JobKind; limit?: number; offset?: number }): Promise<FailedJob[]> {
    this.requireAdmin(caller);
    return this.jobs.failed({ kind: query.kind, limit: query.limit ?? 50, offset: query.offset ?? 0 });
  }
}
