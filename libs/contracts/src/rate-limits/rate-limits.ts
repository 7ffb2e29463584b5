import { IsBoolean, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';

/** The longest window a rate limit may have (RATE_LIMIT_*, CONSOLE_SIGN_IN_LIMIT): rows live two of these. */
export const RATE_LIMIT_MAX_WINDOW_MS = 3_600_000;

/**
 * session.rate-limits.lease (gateway only): permits of a limit shared by every gateway replica. The window is the
 * fixed one of `windowMs` holding now (its start a multiple of `windowMs` since the epoch); at most `want` permits are
 * granted, and never more than the sliding estimate leaves: `limit - previous window's grants × its remaining share -
 * this window's grants` (`fixed`: `limit - this window's grants`).
 */
export class RateLimitLeaseMessage {
  /** `a:<application>`, `s:<session>`, `console:a:<address>`, `console:k:<key hash>` */
  @IsString()
  @MaxLength(300)
  subject!: string;

  @IsInt()
  @Min(1)
  @Max(1_000_000_000)
  limit!: number;

  @IsInt()
  @Min(1)
  @Max(RATE_LIMIT_MAX_WINDOW_MS)
  windowMs!: number;

  @IsInt()
  @Min(1)
  @Max(1_000_000_000)
  want!: number;

  /** fixed windows: the previous window does not count (the console's sign-ins, as they always were) */
  @IsOptional()
  @IsBoolean()
  fixed?: boolean;
}

export interface RateLimitLeaseReply {
  /** permits granted to the caller now (0 ≤ granted ≤ want) */
  granted: number;
  /** the window's start, ms since the epoch: the permits are good until windowStart + windowMs */
  windowStart: number;
  /** what the limit still leaves in this window after this grant (by the sliding estimate, at this instant) */
  remaining: number;
  /** seconds until the window ends (at least 1): the Retry-After of a refusal */
  retryAfterSeconds: number;
  /** ms until the window ends, on session-service's clock: the granted permits lapse then */
  windowEndsInMs: number;
  /** ms until the sliding estimate leaves a permit again (0 when `remaining` > 0; the window's end at most) */
  nextPermitInMs: number;
}
