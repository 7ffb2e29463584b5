import { Controller } from '@nestjs/common';
import { OPS, type RateLimitLeaseMessage } from '@coffer/contracts';
import { Operation, type Command } from '@coffer/operations';
import { RateLimitWindows } from './rate-limit-windows';

/** The gateway's shared rate limits (no principal: the gateway asks before a request runs, for any subject). */
@Controller()
export class RateLimitsHandler {
  constructor(private readonly windows: RateLimitWindows) {}

  @Operation(OPS.session.rateLimits.lease)
  lease(cmd: Command<RateLimitLeaseMessage>) {
    return this.windows.lease(cmd.body);
  }
}
