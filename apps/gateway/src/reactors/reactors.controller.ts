import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import {
  ProblemError,
  RPC_DEADLINE_MS,
  SUBJECTS,
  customReactorResponse,
  type CustomReactorResponse,
  type Page,
  type ReactResponse,
  type ReactorView,
} from '@coffer/contracts';
import { RequirePermission } from '@coffer/auth';
import { RpcClient } from '@coffer/messaging';
import { callContext, type GatewayRequest } from '../http/gateway-request';

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
   * (see libs/contracts reactors): its status, headers and body are the HTTP answer, verbatim.
   */
  @Post(':id/react')
  @RequirePermission('token:use')
  async react(@Req() req: GatewayRequest, @Param('id') id: string, @Body() body: unknown, @Res() reply: FastifyReply): Promise<void> {
    let result: ReactResponse;
    try {
      result = await this.rpc.call<ReactResponse>(SUBJECTS.reactor.reactors.react, { id, body: body ?? {} }, callContext(req), RPC_DEADLINE_MS.react);
    } catch (err) {
      const custom = err instanceof ProblemError ? customReactorResponse(err.problem) : undefined;
      if (!custom) throw err;
      sendCustom(reply, custom);
      return;
    }
    void reply.status(200).send(result);
  }
}

function sendCustom(reply: FastifyReply, custom: CustomReactorResponse): void {
  let contentType: string | undefined;
  for (const [name, value] of Object.entries(custom.headers ?? {})) {
    const lower = name.toLowerCase();
    if (lower === 'svc-trace-id') continue; // the trace id stays ours
    if (lower === 'content-type') contentType = value;
    void reply.header(name, value);
  }
  void reply.status(custom.status);
  if (custom.body === undefined) {
    void reply.send();
    return;
  }
  // A string body with a non-JSON content type is sent as text; anything else as JSON.
  if (typeof custom.body === 'string' && contentType && !/json/i.test(contentType)) {
    void reply.send(custom.body);
    return;
  }
  if (!contentType) void reply.header('content-type', 'application/json; charset=utf-8');
  void reply.send(JSON.stringify(custom.body));
}
