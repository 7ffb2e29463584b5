import { ProblemError, badRequest } from '@coffer/contracts';
import { overSize, overTime, type JobBudget, type JobResult } from './transform-steps';

/**
 * One call's transform budget: the time its jobs may run on the transform threads (waiting for a thread is not
 * charged) and the largest body any step may leave. Checked before each job, by the job itself between steps and
 * every few hundred matches of a mask, and by the pool, which terminates a thread running past it.
 */
export class CallBudget {
  private spentMs = 0;

  constructor(
    readonly budgetMs: number,
    readonly maxBytes: number,
  ) {}

  forJob(): JobBudget {
    const remainingMs = this.budgetMs - this.spentMs;
    if (remainingMs <= 0) throw jobProblem({ ok: false, kind: 'budget', message: overTime(this.budgetMs).message });
    return { remainingMs, maxBytes: this.maxBytes, budgetMs: this.budgetMs };
  }

  async charge(run: () => Promise<JobResult>): Promise<JobResult> {
    const result = await run();
    this.spentMs += result.ms ?? 0;
    return result;
  }

  checkSize(bytes: number): void {
    if (bytes > this.maxBytes) throw jobProblem({ ok: false, kind: 'budget', message: overSize(this.maxBytes).message });
  }
}

/**
 * A failed job as the caller's problem: over the budget is the proxy's configuration asking too much of this answer
 * (422, like an expression over its budget is the caller's 4xx), a transform that cannot run on this message a 400,
 * a lost thread a 502. None quotes the message.
 */
export function jobProblem(result: Extract<JobResult, { ok: false }>): ProblemError {
  switch (result.kind) {
    case 'budget':
      return new ProblemError(422, result.message, { transforms: [result.message] });
    case 'input':
      return badRequest(result.title ?? 'The proxy transform cannot run', { [result.field ?? 'transforms']: [result.message] });
    default:
      return new ProblemError(502, "The proxy's transforms failed");
  }
}
