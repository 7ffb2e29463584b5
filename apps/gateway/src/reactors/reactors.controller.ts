import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Req, Res, UseFilters } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
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

  @Get(':id/results/:requestId')
  @RequirePermission('token:use', 'reactor:read')
  result(@Req() req: GatewayRequest, @Param('id') id: string, @Param('requestId') requestId: string) {
    return this.rpc.call(SUBJECTS.reactor.reactors.result, { id, requestId }, callContext(req));
  }
}
