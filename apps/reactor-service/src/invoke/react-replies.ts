import { Injectable } from '@nestjs/common';
import { ProblemError, type Principal, type ReactResponse } from '@coffer/contracts';
import type { CallContext } from '@coffer/messaging';
import { ApplicationDirectory } from '../reactors/application-directory';
import { recapTokens, replyCeiling, type ShownView } from './reply-ceiling';
import type { RecordedReact } from './reactor-runner';

/** What is stored of a react reply (encrypted): see RecordedReact. */
export interface StoredReact {
  response: ReactResponse;
  shown: ShownView[];
  writer: string | null;
}

export function isStoredReact(value: unknown): value is StoredReact {
  if (value === null || typeof value !== 'object') return false;
  const v = value as Record<string, unknown>;
  return typeof v['response'] === 'object' && v['response'] !== null && Array.isArray(v['shown']) && (v['writer'] === null || typeof v['writer'] === 'string');
}

export function storedReact(r: RecordedReact): StoredReact {
  return { response: r.response, shown: r.shown, writer: r.writer };
}

/**
 * A react reply rendered again after it was first sent: an idempotent replay of POST /reactors/{id}/react, or an
 * asynchronous result read back. Token views the formula's `tokenize` created are shown no more revealed than the
 * rules in force now allow (the viewer's own, and the Reactor application's that created them), and never more
 * than the first time. The formula's `raw` is returned as stored.
 */
@Injectable()
export class ReactReplies {
  constructor(private readonly applications: ApplicationDirectory) {}

  /**
   * `stored`: a StoredReact, or a record of the plain reply kept before what was shown was recorded (its token views
   * then lose their data). `viewerWrote`: the viewer is the principal the reply was first made for (a management
   * application reading someone's asynchronous result is not, and sees no token data).
   */
  async render(ctx: CallContext & { principal: Principal }, stored: unknown, viewerWrote = true): Promise<ReactResponse> {
    if (isStoredReact(stored)) {
      const { response, shown, writer } = stored;
      if (response.tokens === undefined) return response;
      const ceiling =
        !viewerWrote || ctx.principal.applicationType === 'management'
          ? () => 'redact' as const
          : replyCeiling(writer === null ? null : await this.principalNow(ctx, writer), ctx.principal, writer === null);
      return { ...response, tokens: recapTokens(response.tokens, shown, ceiling) };
    }
    const plain = (stored ?? {}) as ReactResponse;
    if (typeof plain !== 'object' || plain.tokens === undefined) return plain;
    return { ...plain, tokens: recapTokens(plain.tokens, undefined, () => 'redact') };
  }

  /** The application's principal as it stands now; null when it no longer exists. */
  private async principalNow(ctx: CallContext, applicationId: string): Promise<Principal | null> {
    try {
      return await this.applications.principalOf(ctx, applicationId);
    } catch (err) {
      if (err instanceof ProblemError && err.status === 404) return null;
      throw err;
    }
  }
}
