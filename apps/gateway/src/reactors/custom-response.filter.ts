import { type ArgumentsHost, Catch, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import type { CustomReactorResponse } from '@coffer/contracts';

/**
 * A formula threw `CustomHttpResponseError({status, headers, body})`: that is the HTTP answer. Raised by the react
 * route when reactor-service's problem carries `custom`; anything else goes to the global ProblemFilter. Being an
 * error, it is never stored as an idempotent success.
 */
export class CustomReactorResponseException extends Error {
  constructor(readonly response: CustomReactorResponse) {
    super('custom reactor response');
  }
}

@Catch(CustomReactorResponseException)
export class CustomReactorResponseFilter implements ExceptionFilter {
  catch(exception: CustomReactorResponseException, host: ArgumentsHost): void {
    sendCustom(host.switchToHttp().getResponse<FastifyReply>(), exception.response);
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
