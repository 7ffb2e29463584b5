import { Controller } from '@nestjs/common';
import { OPS, type ReactorBodyRequest, type ReactorResultMessage } from '@coffer/contracts';
import { Operation, ResourceHandler, OperationDispatcher, RecordingOperation, type Command } from '@coffer/operations';
import { InvokeReactorUseCase } from '../invoke/invoke-reactor.use-case';
import { ReactorJobs } from '../invoke/async/reactor-jobs';
import { ReactorsService } from './reactors.service';

@Controller()
export class ReactorsHandler extends ResourceHandler(ReactorsService, OPS.reactor.reactors) {
  constructor(
    reactors: ReactorsService,
    private readonly invoke: InvokeReactorUseCase,
    private readonly jobs: ReactorJobs,
    dispatcher: OperationDispatcher,
  ) {
    super(reactors);
    // a repeat of a synchronous react gets its recorded reply with the token views re-capped by the rules in force then
    dispatcher.handle(OPS.reactor.reactors.react, { codec: () => this.invoke.replayCodec() });
  }

  /**
   * The row's idempotency: a synchronous invocation claims its key while it runs (a formula's calls to third parties
   * cannot be rolled back); an accepted asynchronous one is recorded in the transaction that stores its job.
   */
  @RecordingOperation(OPS.reactor.reactors.react)
  react(cmd: Command<ReactorBodyRequest | undefined>) {
    return this.invoke.executeRecorded({ reactorId: cmd.body?.id as string, body: cmd.body?.body });
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
