import { Body, Param, Req, Res, UseFilters } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ApiAcceptedResponse, ApiExtraModels, ApiResponse } from '@nestjs/swagger';
import {
  OPS,
  CodeReactorRequest,
  CreateReactorRequest,
  ProblemError,
  RPC_DEADLINE_MS,
  ReactAccepted,
  ReactAsyncRequest,
  ReactRequest,
  ReactResponse,
  customReactorResponse,
} from '@coffer/contracts';
import { Route } from '../http/route.decorator';
import { HANDWRITTEN, RowRoutes, rowController } from '../http/row-routes';
import { callContext, type GatewayRequest } from '../http/gateway-request';
import { CustomReactorResponseException, CustomReactorResponseFilter } from './custom-response.filter';

/** The invocations: their deadline, react's status and the formula's own answer, react-async's reply. */
@ApiExtraModels(CreateReactorRequest, CodeReactorRequest, ReactResponse, ReactAccepted)
class ReactorHandlers extends RowRoutes {
  /**
   * Synchronous invocation. A formula's `CustomHttpResponseError` comes back as a problem carrying `custom`
   * (libs/contracts reactors): the route turns it into the exception its filter answers with verbatim.
   */
  @Route(OPS.reactor.reactors.react)
  @UseFilters(CustomReactorResponseFilter)
  @ApiAcceptedResponse({ type: ReactAccepted, description: 'with callback_url: accepted, the result follows by webhook' })
  @ApiResponse({
    status: 'default',
    description: "The formula's own answer (CustomHttpResponseError): any status, headers and body, returned as given",
    content: { '*/*': { schema: {}, example: { declined: true, reason: 'insufficient funds' } } },
  })
  async react(
    @Req() req: GatewayRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Param('id') id: string,
    @Body() body: ReactRequest,
  ): Promise<ReactResponse> {
    try {
      const result = await this.rpc.call<ReactResponse>(OPS.reactor.reactors.react, { id, body }, callContext(req), RPC_DEADLINE_MS.react);
      // with callback_url the invocation was accepted, not run: 202 {id, status: "pending"}
      if (body.callback_url !== undefined && body.callback_url !== null) void reply.status(202);
      return result;
    } catch (err) {
      const custom = err instanceof ProblemError ? customReactorResponse(err.problem) : undefined;
      throw custom ? new CustomReactorResponseException(custom) : err;
    }
  }

  /**
   * Asynchronous invocation without a callback (the mirrored API's react-async): 202 once the arguments are checked
   * and the job is stored. `asyncReactorRequestId` is the name the node SDK reads; `id` and `status` are the
   * asynchronous reply of docs/reactors.md. The result: GET /reactors/{id}/results/{request id}.
   */
  @Route(OPS.reactor.reactors.reactAsync)
  async reactAsync(@Req() req: GatewayRequest, @Param('id') id: string, @Body() body: ReactAsyncRequest) {
    const accepted = await this.rpc.call<{ id: string; status: 'pending' }>(
      OPS.reactor.reactors.reactAsync,
      { id, body },
      callContext(req),
      RPC_DEADLINE_MS.react,
    );
    return { asyncReactorRequestId: accepted.id, id: accepted.id, status: accepted.status };
  }
}

/** Reactors (docs/reactors.md), kept and run by reactor-service. */
export const ReactorsController = rowController('ReactorsController', {
  tags: ['reactors'],
  handlers: ReactorHandlers,
  routes: {
    create: OPS.reactor.reactors.create,
    list: OPS.reactor.reactors.list,
    get: OPS.reactor.reactors.get,
    update: OPS.reactor.reactors.update,
    delete: OPS.reactor.reactors.delete,
    react: HANDWRITTEN,
    /** JSON merge patch (RFC 7386) of name, configuration, application and, for a code reactor, code and runtime */
    patch: OPS.reactor.reactors.patch,
    reactAsync: HANDWRITTEN,
    result: OPS.reactor.reactors.result,
  },
});
