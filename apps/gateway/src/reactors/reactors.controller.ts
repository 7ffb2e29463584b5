import { Body, Controller, Delete, Get, Headers, HttpCode, Param, Patch, Post, Put, Query, Req, Res, UseFilters } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ApiBody, ApiConsumes, ApiOperation, ApiResponse } from '@nestjs/swagger';
import {
  ProblemError,
  RPC_DEADLINE_MS,
  SUBJECTS,
  customReactorResponse,
  type Page,
  type ReactResponse,
  type ReactorView,
} from '@coffer/contracts';
import { RequirePermission } from '@coffer/auth';
import { RpcClient } from '@coffer/messaging';
import { callContext, type GatewayRequest } from '../http/gateway-request';
import { CustomReactorResponseException, CustomReactorResponseFilter } from './custom-response.filter';
import { normalizeReactBody } from './react-body';

@Controller('reactors')
export class ReactorsController {
  constructor(private readonly rpc: RpcClient) {}

  @Post()
  @HttpCode(201)
  @RequirePermission('reactor:create')
  create(@Req() req: GatewayRequest, @Body() body: unknown) {
    return this.rpc.call<ReactorView>(SUBJECTS.reactor.reactors.create, body ?? {}, callContext(req));
  }

  @Get()
  @RequirePermission('reactor:read')
  list(@Req() req: GatewayRequest, @Query() query: Record<string, unknown>) {
    return this.rpc.call<Page<ReactorView>>(SUBJECTS.reactor.reactors.list, query, callContext(req));
  }

  @Get(':id')
  @RequirePermission('reactor:read')
  get(@Req() req: GatewayRequest, @Param('id') id: string) {
    return this.rpc.call<ReactorView>(SUBJECTS.reactor.reactors.get, { id }, callContext(req));
  }

  @Put(':id')
  @RequirePermission('reactor:update')
  update(@Req() req: GatewayRequest, @Param('id') id: string, @Body() body: unknown) {
    return this.rpc.call<ReactorView>(SUBJECTS.reactor.reactors.update, { id, body: body ?? {} }, callContext(req));
  }

  @Delete(':id')
  @HttpCode(204)
  @RequirePermission('reactor:delete')
  async delete(@Req() req: GatewayRequest, @Param('id') id: string): Promise<void> {
    await this.rpc.call(SUBJECTS.reactor.reactors.delete, { id }, callContext(req));
  }

  /**
   * Synchronous invocation. A formula's `CustomHttpResponseError` comes back as a problem carrying `custom`
   * (libs/contracts reactors): the route turns it into the exception its filter answers with verbatim.
   */
  @Post(':id/react')
  @HttpCode(200)
  @RequirePermission('token:use')
  @UseFilters(CustomReactorResponseFilter)
  async react(
    @Req() req: GatewayRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Param('id') id: string,
    @Body() given: unknown,
  ): Promise<ReactResponse> {
    const body = normalizeReactBody(given);
    try {
      const result = await this.rpc.call<ReactResponse>(SUBJECTS.reactor.reactors.react, { id, body: body ?? {} }, callContext(req), RPC_DEADLINE_MS.react);
      // with callback_url the invocation was accepted, not run: 202 {id, status: "pending"}
      const callbackUrl = (body as { callback_url?: unknown } | null)?.callback_url;
      if (callbackUrl !== undefined && callbackUrl !== null) void reply.status(202);
      return result;
    } catch (err) {
      const custom = err instanceof ProblemError ? customReactorResponse(err.problem) : undefined;
      throw custom ? new CustomReactorResponseException(custom) : err;
    }
  }

  /**
   * JSON merge patch (RFC 7386) of name, configuration, application and, for a code reactor, code and runtime. The
   * node SDK sends application/merge-patch+json; application/json is taken too. Answers the updated reactor.
   */
  @Patch(':id')
  @RequirePermission('reactor:update')
  @ApiOperation({ summary: 'Patch a reactor (JSON merge patch)', description: 'reactor:update. name, configuration, application; code and runtime of a code reactor.' })
  @ApiConsumes('application/merge-patch+json', 'application/json')
  @ApiBody({
    schema: {
      type: 'object',
      properties: { name: { type: 'string' }, configuration: { type: 'object' }, application: { type: 'object', nullable: true }, code: { type: 'string' }, runtime: { type: 'object' } },
    },
  })
  patch(@Req() req: GatewayRequest, @Param('id') id: string, @Headers('content-type') contentType: string | undefined, @Body() body: unknown) {
    const type = contentType?.split(';')[0].trim().toLowerCase();
    if (type !== 'application/merge-patch+json' && type !== 'application/json')
      throw new ProblemError(415, 'PATCH /reactors/{id} takes Content-Type: application/merge-patch+json (or application/json)');
    return this.rpc.call<ReactorView>(SUBJECTS.reactor.reactors.patch, { id, body: body ?? {} }, callContext(req));
  }

  /**
   * Asynchronous invocation without a callback (the mirrored API's react-async): 202 once the arguments are checked
   * and the job is stored. `asyncReactorRequestId` is the name the node SDK reads; `id` and `status` are the
   * asynchronous reply of conventions §8. The result: GET /reactors/{id}/results/{request id}.
   */
  @Post(':id/react-async')
  @HttpCode(202)
  @RequirePermission('token:use')
  @ApiOperation({ summary: 'Invoke a reactor asynchronously', description: 'token:use. Read the result at GET /reactors/{id}/results/{request id}.' })
  @ApiBody({ schema: { type: 'object', properties: { args: { type: 'object' }, timeout_ms: { type: 'integer', minimum: 10000, maximum: 210000 } } } })
  @ApiResponse({
    status: 202,
    schema: { type: 'object', properties: { asyncReactorRequestId: { type: 'string', format: 'uuid' }, id: { type: 'string', format: 'uuid' }, status: { type: 'string', enum: ['pending'] } } },
  })
  async reactAsync(@Req() req: GatewayRequest, @Param('id') id: string, @Body() body: unknown) {
    const accepted = await this.rpc.call<{ id: string; status: 'pending' }>(SUBJECTS.reactor.reactors.reactAsync, { id, body: body ?? {} }, callContext(req), RPC_DEADLINE_MS.react);
    return { asyncReactorRequestId: accepted.id, id: accepted.id, status: accepted.status };
  }

  @Get(':id/results/:requestId')
  @RequirePermission('token:use', 'reactor:read')
  @ApiOperation({
    summary: 'Result of an asynchronous invocation',
    description:
      '{id, status, result?, error?, created_at, completed_at?}. status: pending | running | succeeded | failed for callback_url invocations; pending | completed | failed for react-async.',
  })
  result(@Req() req: GatewayRequest, @Param('id') id: string, @Param('requestId') requestId: string) {
    return this.rpc.call(SUBJECTS.reactor.reactors.result, { id, requestId }, callContext(req));
  }
}
