import { Injectable } from '@nestjs/common';
import { ProblemError, conflict, forbidden, type Principal, type ReactResponse } from '@coffer/contracts';
import type { CallContext } from '@coffer/bus';
import { ApplicationDirectory } from '../reactors/application-directory';
import { asCaller, type CallerContext } from '@coffer/operations';
import { recapTokens, replyCeiling, type ShownView } from './reply-ceiling';
import type { RecordedReact } from './reactor-runner';
import { TokenServiceClient } from './token-service.client';

/** What is stored of a react reply (encrypted): see RecordedReact. */
export interface StoredReact {
  response: ReactResponse;
  shown: ShownView[];
  writer: string | null;
  /** the tokens the args detokenized (absent in records made before it was kept) */
  usedTokenIds?: string[];
}

export function isStoredReact(value: unknown): value is StoredReact {
  if (value === null || typeof value !== 'object') return false;
  const v = value as Record<string, unknown>;
  return typeof v['response'] === 'object' && v['response'] !== null && Array.isArray(v['shown']) && (v['writer'] === null || typeof v['writer'] === 'string');
}

/** What a repeat needs; a run's console output (`capture_logs`) is its own and never stored. */
export function storedReact(r: RecordedReact): StoredReact {
  const { logs: _logs, ...response } = r.response;
  return { response, shown: r.shown, writer: r.writer, usedTokenIds: r.usedTokenIds };
}

/**
 * A react reply rendered again after it was first sent: an idempotent replay of POST /reactors/{id}/react, or an
 * asynchronous result read back. Token views the formula's `tokenize` created are shown no more revealed than the
 * rules in force now allow (the viewer's own, and the Reactor application's that created them), and never more
 * than the first time. The formula's `raw` is returned as stored.
 */
@Injectable()
export class ReactReplies {
  constructor(
    private readonly applications: ApplicationDirectory,
    private readonly tokens: TokenServiceClient,
  ) {}

  /**
   * An idempotent replay of a synchronous react: the formula's `raw` cannot be re-capped (it is the formula's own
   * output, possibly built from the detokenized args), so it is only sent again to a caller who may still use every
   * token the original args detokenized — 403 if its rules were narrowed since, 409 if such a token is gone. The check
   * is a detokenization as the caller (audited as a use, since the replay hands out what that use produced); its
   * values are discarded. For the operation's caller.
   */
  async replay(stored: unknown): Promise<ReactResponse> {
    const ctx = asCaller();
    const used = isStoredReact(stored) ? (stored.usedTokenIds ?? []) : [];
    if (used.length > 0) {
      try {
        await this.tokens.detokenize(
          ctx,
          used.map((id) => `{{ ${id} }}`),
          'args',
        );
      } catch (err) {
        if (err instanceof ProblemError && err.status === 403)
          throw forbidden('The API key may no longer use a token that the original invocation detokenized');
        if (err instanceof ProblemError && (err.status === 400 || err.status === 404))
          throw conflict('A token that the original invocation detokenized no longer exists');
        throw err;
      }
    }
    return this.renderFor(ctx, stored, true);
  }

  /**
   * `stored` rendered for the operation's caller (the viewer): a StoredReact, or a record of the plain reply kept
   * before what was shown was recorded (its token views then lose their data). `viewerWrote`: the viewer is the
   * principal the reply was first made for (a management application reading someone's asynchronous result is not,
   * and sees no token data).
   */
  render(stored: unknown, viewerWrote = true): Promise<ReactResponse> {
    return this.renderFor(asCaller(), stored, viewerWrote);
  }

  private async renderFor(ctx: CallerContext, stored: unknown, viewerWrote: boolean): Promise<ReactResponse> {
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
