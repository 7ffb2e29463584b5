import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AUDIT_ENTITY_TYPES, LogEntityTypeView } from '@coffer/contracts';
import { RequirePermission } from '@coffer/auth';

/** `GET /logs/entity-types`: the values `GET /logs?entity_type=` accepts (a fixed list, answered by the gateway). */
@ApiTags('logs')
@Controller('logs')
export class LogEntityTypesController {
  @Get('entity-types')
  @RequirePermission('log:read')
  @ApiOperation({ summary: 'Audit entity types', description: 'log:read. The values GET /logs?entity_type= accepts.' })
  @ApiOkResponse({ type: [LogEntityTypeView] })
  list(): LogEntityTypeView[] {
    return AUDIT_ENTITY_TYPES.map((t) => ({ display_name: t.display_name, value: t.value }));
  }
}
