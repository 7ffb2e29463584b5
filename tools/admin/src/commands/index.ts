import type { Command } from '../cli/command';
import { auditCommands } from './audit';
import { formulaCommands } from './formulas';
import { keyCustodyCommands } from './key-custody';
import { keyCommands } from './keys';
import { tenantCommands } from './tenants';
import { webhookCommands } from './webhooks';

/** Every command of the CLI, one module per group: a new group adds its file and one line here. */
export const COMMANDS: Command[] = [...tenantCommands, ...keyCommands, ...keyCustodyCommands, ...formulaCommands, ...webhookCommands, ...auditCommands];
