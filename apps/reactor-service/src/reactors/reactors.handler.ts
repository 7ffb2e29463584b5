import { Controller } from '@nestjs/common';
import { OPS, type IdRequest, type ReactorBodyRequest, type ReactorResultMessage } from '@coffer/contracts';
import { Operation, OperationDispatcher, RecordingOperation, type Command } from '@coffer/operations';
import { InvokeReactorUseCase } from '../invoke/invoke-reactor.use-case';
import { ReactorJobs } from '../invoke/async/reactor-jobs';
import { ReactorsService } from './reactors.service';

@Controller()
export class ReactorsHandler {
  constructor(
    private readonly reactors: ReactorsService,
    private readonly invoke: InvokeReactorUseCase,
    private readonly jobs: ReactorJobs,
    dispatcher: OperationDispatcher,
  ) {
    // a repeat of a synchronous react gets its recorded reply with the token views re-capped by the rules in force then
    dispatcher.handle(OPS.reactor.reactors.react, { codec: () => this.invoke.replayCodec() });
  }

  @Operation(OPS.reactor.reactors.create)
  create(cmd: Command) {
    return this.reactors.create(cmd.body);
  }

  @Operation(OPS.reactor.reactors.list)
  list(cmd: Command<Record<string, unknown> | undefined>) {
    return this.reactors.list(cmd.body ?? {});
  }

  @Operation(OPS.reactor.reactors.get)
  get(cmd: Command<IdRequest | undefined>) {
    return this.reactors.get(cmd.body?.id as string);
  }

  @Operation(OPS.reactor.reactors.update)
  update(cmd: Command<ReactorBodyRequest | undefined>) {
    return this.reactors.update(cmd.body?.id as string, cmd.body?.body);
  }

  @Operation(OPS.reactor.reactors.delete)
  async delete(cmd: Command<IdRequest | undefined>) {
    await this.reactors.delete(cmd.body?.id as string);
    return { deleted: true };
  }

  /**
   * The row's idempotency: a synchronous invocation claims its key while it runs (a formula's calls to third parties
   * cannot be rolled back); an accepted asynchronous one is recorded in the transaction that stores its job.
   */
  @RecordingOperation(OPS.reactor.reactors.react)
  react(cmd: Command<ReactorBodyRequest | undefined>) {
    return this.invoke.executeRecorded({ reactorId: cmd.body?.id as string, body: cmd.body?.body });
  }

  @Operation(OPS.reactor.reactors.patch)
  patch(cmd: Command<ReactorBodyRequest | undefined>) {
    return this.reactors.patch(cmd.body?.id as string, cmd.body?.body);
  }

  /** One job per key: recorded in the transaction that stores the job. */
  @Operation(OPS.reactor.reactors.reactAsync)
  reactAsync(cmd: Command<ReactorBodyRequest | undefined>) {
    return this.invoke.executeAsync({ reactorId: cmd.body?.id as string, body: cmd.body?.body });
  }

  /** GET /reactors/{id}/results/{request id}: the invoking application with token:use, or management with reactor:read. */
  @Operation(OPS.reactor.reactors.result)
  result(cmd: Command<ReactorResultMessage | undefined>) {
    return this.jobs.result(cmd.body?.id as string, cmd.body?.requestId as string);
  }
}
