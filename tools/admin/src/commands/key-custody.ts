import { commandsOf, type Command } from '../cli/command';
import { KEY_CUSTODY_COMMANDS, runKeyCustodyCommand } from '../key-custody';

/** `keys init` and `keys rewrap` (the key-encryption key's custody), in the CLI's command shape. */
export const keyCustodyCommands: Command[] = commandsOf(KEY_CUSTODY_COMMANDS, (name, ctx) => runKeyCustodyCommand(name, ctx.values));
