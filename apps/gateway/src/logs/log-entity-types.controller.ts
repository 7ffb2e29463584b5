import { Controller, Get } from '@nestjs/common';
import { AUDIT_ENTITY_TYPES, type LogEntityTypeView } from '@coffer/contracts';
import { RequirePermission } from '@coffer/auth';

/** `GET /logs/entity-types`: the values `GET /logs?entity_type=` accepts (a fixed list, answered by the gateway). */
@Controller('logs')
export class LogEntityTypesController {
  @Get('entity-types')
  @RequirePermission('log:read')
  list(): LogEntityTypeView[] {
    return AUDIT_ENTITY_TYPES.map((t) => ({ display_name: t.display_name, value: t.value }));
  }
}
