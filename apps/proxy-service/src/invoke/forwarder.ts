import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import { EgressFetchError, EgressPolicy, egressFetch, releaseAgent, withoutHopByHop } from '@coffer/egress';
import { ProblemError, badRequest } from '@coffer/contracts';
import { createLogger } from '@coffer/observability';
import { proxyServiceConfig } from '../config';
import { DESTINATION_HEADER } from './destination';

export interface DestinationAnswer {
  status: number;
  headers: [string, string][];
  body: Buffer;
}

/** The length and coding of a body the proxy read whole: the gateway frames it again (a compressed answer was decoded by the egress reader). */
const REFRAMED = new Set(['content-length', 'content-encoding']);

/**
 * Sends the request to its destination under the egress policy of the proxy (libs/egress): https only, every
 * address the name resolves to checked at connect time and the checked address the one connected to (the agent's
 * lookup), redirects returned to the caller as they are, never followed; the destination's time and size bounded.
 * Failures become problems that name the destination's host at most — never its answer or the request's data.
 */
@Injectable()
export class Forwarder implements OnModuleDestroy {
  private readonly config = proxyServiceConfig();
  private readonly logger = createLogger('proxy-service');
  readonly policy = new EgressPolicy({ allowPrivate: this.config.allowPrivateEgress, allowHosts: this.config.egressAllowHosts, protocols: ['https:'] });

  async send(url: URL, method: string, headers: [string, string][], body: Buffer, deadline?: number): Promise<DestinationAnswer> {
    // the destination's own bound, or what the caller has left when that is sooner
    const until = Math.min(Date.now() + this.config.destinationTimeoutMs, deadline ?? Number.POSITIVE_INFINITY);
    try {
      const res = await egressFetch(
        this.policy,
        { url: url.href, method, headers, body: body.length ? body : null, redirect: 'manual' },
        { deadline: until, maxResponseBytes: this.config.maxResponseBytes, maxRequestBytes: 5 * 1024 * 1024 },
      );
      return { status: res.status, headers: withoutHopByHop(res.headers, REFRAMED), body: res.body };
    } catch (err) {
      if (err instanceof EgressFetchError && err.type === 'system')
        this.logger.warn({ host: url.hostname, code: err.code ?? 'network error' }, 'a proxy destination could not be reached');
      throw toProblem(err, url.hostname);
    }
  }

  async onModuleDestroy(): Promise<void> {
    await releaseAgent(this.policy);
  }
}

export function toProblem(err: unknown, host: string): ProblemError {
  if (!(err instanceof EgressFetchError)) return new ProblemError(502, `The request to ${host} failed`);
  switch (err.type) {
    case 'request-timeout':
      return new ProblemError(408, `${host} did not answer in time`);
    case 'egress-denied':
      // the same words for a name that does not resolve and a name of a refused address (libs/egress unreachable)
      return badRequest('The proxy destination is not allowed', { [DESTINATION_HEADER]: [`${host} is not reachable (not found, or not a public address)`] });
    case 'max-size':
      return new ProblemError(502, `The response of ${host} is larger than the proxy accepts`);
    case 'invalid':
      // e.g. a header value a detokenized value broke: the message names the header, never its value
      return badRequest('The proxy request is invalid', { headers: [err.message] });
    default:
      // the socket error stays in proxy-service's log: ECONNREFUSED against ETIMEDOUT would tell callers which ports are open
      return new ProblemError(502, `${host} could not be reached`);
  }
}
