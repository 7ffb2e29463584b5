import { Controller } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { SUBJECTS } from '@coffer/contracts';

/** Answers on the service's own subject prefix, so callers can tell "up" from "no responders". */
@Controller()
export class PingHandler {
  @MessagePattern(SUBJECTS.ping('reactor'))
  ping() {
    return { ok: true };
  }
}
