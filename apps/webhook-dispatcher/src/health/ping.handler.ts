import { Controller } from '@nestjs/common';
import { OPS } from '@coffer/contracts';
import { Operation } from '@coffer/operations';

/** Answers on the service's own subject prefix, so callers can tell "up" from "no responders". */
@Controller()
export class PingHandler {
  @Operation(OPS.ping.webhook)
  ping() {
    return { ok: true };
  }
}
