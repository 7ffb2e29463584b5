import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Query, Req, Res, UseFilters } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import {
  ApiAcceptedResponse,
  ApiBody,
  ApiConsumes,
  ApiCreatedResponse,
  ApiExtraModels,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiResponse,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import {
  OPS,
  CodeReactorRequest,
  CreateReactorRequest,
  ListReactorsQuery,
  NewReactorRequest,
  ProblemError,
  RPC_DEADLINE_MS,
  ReactAccepted,
  ReactAsyncAccepted,
  ReactAsyncRequest,
  ReactRequest,
  ReactResponse,
  ReactorJobResultView,
  ReactorMergePatch,
  ReactorPage,
  ReactorView,
  ReplaceReactorRequest,
  UpdateReactorRequest,
  customReactorResponse,
  type Page,
} from '@coffer/contracts';
import { RequirePermission } from '@coffer/auth';
import { RpcClient } from '@coffer/messaging';
import { callContext, type GatewayRequest } from '../http/gateway-request';
import { CustomReactorResponseException, CustomReactorResponseFilter } from './custom-response.filter';
import { AcceptsContentType } from '../http/content-type.guard';
import { ApiProblems } from '../docs/api-problems.decorator';

const REACTOR_ID = { name: 'id', format: 'uuid', description: 'the reactor id' };

@ApiTags('reactors')
@ApiExtraModels(CreateReactorRequest, CodeReactorRequest, ReactResponse, ReactAccepted)
@Controller('reactors')
export class ReactorsController {
  constructor(private readonly rpc: RpcClient) {}

  @Post()
  @HttpCode(201)
  @RequirePermission('reactor:create')
  @ApiOperation({
    summary: 'Create a reactor',
    description:
      'reactor:create. From a formula (`formula.id`, configuration satisfying its contract) or with its own `code` (a code reactor): exactly one of the two.',
  })
  @ApiBody({ schema: { oneOf: [{ $ref: getSchemaPath(CreateReactorRequest) }, { $ref: getSchemaPath(CodeReactorRequest) }] } })
  @ApiCreatedResponse({ type: ReactorView })
  @ApiProblems({ 404: 'The formula or the application does not exist' })
  create(@Req() req: GatewayRequest, @Body() body: NewReactorRequest) {
    return this.rpc.call<ReactorView>(OPS.reactor.reactors.create, body, callContext(req));
  }

  @Get()
  @RequirePermission('reactor:read')
  @ApiOperation({ summary: 'List reactors', description: 'reactor:read. Configuration values are returned as given.' })
  @ApiOkResponse({ type: ReactorPage })
  list(@Req() req: GatewayRequest, @Query() query: ListReactorsQuery) {
    return this.rpc.call<Page<ReactorView>>(OPS.reactor.reactors.list, query, callContext(req));
  }

  @Get(':id')
  @RequirePermission('reactor:read')
  @ApiOperation({ summary: 'Get a reactor', description: 'reactor:read.' })
  @ApiParam(REACTOR_ID)
  @ApiOkResponse({ type: ReactorView })
  get(@Req() req: GatewayRequest, @Param('id') id: string) {
    return this.rpc.call<ReactorView>(OPS.reactor.reactors.get, { id }, callContext(req));
  }

  @Put(':id')
  @RequirePermission('reactor:update')
  @ApiOperation({
    summary: 'Replace a reactor',
    description:
      'reactor:update. Name, configuration and application (absent = none); the formula cannot change. A code reactor takes name, code, configuration, application and runtime.',
  })
  @ApiParam(REACTOR_ID)
  @ApiBody({ schema: { oneOf: [{ $ref: getSchemaPath(UpdateReactorRequest) }, { $ref: getSchemaPath(CodeReactorRequest) }] } })
  @ApiExtraModels(UpdateReactorRequest)
  @ApiOkResponse({ type: ReactorView })
  update(@Req() req: GatewayRequest, @Param('id') id: string, @Body() body: ReplaceReactorRequest) {
    return this.rpc.call<ReactorView>(OPS.reactor.reactors.update, { id, body }, callContext(req));
  }

  @Delete(':id')
  @HttpCode(204)
  @RequirePermission('reactor:delete')
  @ApiOperation({ summary: 'Delete a reactor', description: 'reactor:delete.' })
  @ApiParam(REACTOR_ID)
  @ApiNoContentResponse({ description: 'deleted' })
  async delete(@Req() req: GatewayRequest, @Param('id') id: string): Promise<void> {
    await this.rpc.call(OPS.reactor.reactors.delete, { id }, callContext(req));
  }

  /**
   * Synchronous invocation. A formula's `CustomHttpResponseError` comes back as a problem carrying `custom`
   * (libs/contracts reactors): the route turns it into the exception its filter answers with verbatim.
   */
  @Post(':id/react')
  @HttpCode(200)
  @RequirePermission('token:use')
  @UseFilters(CustomReactorResponseFilter)
  @ApiOperation({
    summary: 'Invoke a reactor',
    description:
      'token:use, and token:use for the container of every token detokenized from args. Synchronous (at most 10 s, then 504) unless `callback_url` is given: then 202 and the result is POSTed to the URL. A formula may also answer with any status, headers and body of its own (CustomHttpResponseError).',
  })
  @ApiParam(REACTOR_ID)
  @ApiBody({ type: ReactRequest })
  @ApiOkResponse({ type: ReactResponse, description: 'the Reactor Response' })
  @ApiAcceptedResponse({ type: ReactAccepted, description: 'with callback_url: accepted, the result follows by webhook' })
  @ApiProblems({
    402: 'The formula threw InvalidPaymentMethodError',
    422: 'The reactor code does not load',
    500: 'The formula threw ReactorRuntimeError (or anything else): its own answer, not a platform failure',
  })
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
   * JSON merge patch (RFC 7386) of name, configuration, application and, for a code reactor, code and runtime. The
   * node SDK sends application/merge-patch+json; application/json is taken too. Answers the updated reactor.
   */
  @Patch(':id')
  @RequirePermission('reactor:update')
  @ApiOperation({
    summary: 'Patch a reactor (JSON merge patch)',
    description: 'reactor:update. name, configuration, application; code and runtime of a code reactor.',
  })
  @ApiParam(REACTOR_ID)
  @ApiConsumes('application/merge-patch+json', 'application/json')
  @ApiBody({ type: ReactorMergePatch })
  @ApiOkResponse({ type: ReactorView })
  @ApiProblems({ 415: 'The Content-Type is neither application/merge-patch+json nor application/json' })
  @AcceptsContentType(
    ['application/merge-patch+json', 'application/json'],
    'PATCH /reactors/{id} takes Content-Type: application/merge-patch+json (or application/json)',
  )
  patch(@Req() req: GatewayRequest, @Param('id') id: string, @Body() body: ReactorMergePatch) {
    return this.rpc.call<ReactorView>(OPS.reactor.reactors.patch, { id, body }, callContext(req));
  }

  /**
   * Asynchronous invocation without a callback (the mirrored API's react-async): 202 once the arguments are checked
   * and the job is stored. `asyncReactorRequestId` is the name the node SDK reads; `id` and `status` are the
   * asynchronous reply of docs/reactors.md. The result: GET /reactors/{id}/results/{request id}.
   */
  @Post(':id/react-async')
  @HttpCode(202)
  @RequirePermission('token:use')
  @ApiOperation({ summary: 'Invoke a reactor asynchronously', description: 'token:use. Read the result at GET /reactors/{id}/results/{request id}.' })
  @ApiParam(REACTOR_ID)
  @ApiBody({ type: ReactAsyncRequest })
  @ApiResponse({ status: 202, type: ReactAsyncAccepted, description: 'accepted: the job is stored' })
  async reactAsync(@Req() req: GatewayRequest, @Param('id') id: string, @Body() body: ReactAsyncRequest) {
    const accepted = await this.rpc.call<{ id: string; status: 'pending' }>(
      OPS.reactor.reactors.reactAsync,
      { id, body },
      callContext(req),
      RPC_DEADLINE_MS.react,
    );
    return { asyncReactorRequestId: accepted.id, id: accepted.id, status: accepted.status };
  }

  @Get(':id/results/:requestId')
  @RequirePermission('token:use', 'reactor:read')
  @ApiOperation({
    summary: 'Result of an asynchronous invocation',
    description:
      'The invoking application with token:use, or a management application with reactor:read. status: pending | running | succeeded | failed for callback_url invocations; pending | completed | failed for react-async.',
  })
  @ApiParam(REACTOR_ID)
  @ApiParam({ name: 'requestId', format: 'uuid', description: 'the id of the 202 reply' })
  @ApiOkResponse({ type: ReactorJobResultView })
  result(@Req() req: GatewayRequest, @Param('id') id: string, @Param('requestId') requestId: string) {
    return this.rpc.call(OPS.reactor.reactors.result, { id, requestId }, callContext(req));
  }
}
