import type { Actor } from '@wa/core/actor';
import { assertCan } from '@wa/core/policy';
import { FIRST_RUN_STEPS, type FirstRunDto } from '@wa/shared';
import type { FirstRunRepo } from './first-run.repo';

/** The first-run checklist of the admin and dev dashboard (issue 20, §2 Dashboard). */
export class FirstRunService {
  constructor(private readonly repo: FirstRunRepo) {}

  /** The four figures and whether every step is done (then the dashboard shows no checklist). */
  async get(actor: Actor): Promise<FirstRunDto> {
    assertCan(actor, 'first-run.read');
    const counts = await this.repo.counts();
    return { ...counts, done: FIRST_RUN_STEPS.every((step) => counts[step] > 0) };
  }
}
