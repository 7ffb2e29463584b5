import type { Command } from '../cli/command';
import { KEY_CUSTODY_COMMANDS, runKeyCustodyCommand } from '../key-custody';

/** `keys init` and `keys rewrap` (the key-encryption key's custody), in the CLI's command shape. */
export const keyCustodyCommands: Command[] = Object.entries(KEY_CUSTODY_COMMANDS).map(([name, spec]) => ({
  name,
  usage: spec.usage,
  summary: spec.summary,
  options: spec.options,
  positionals: { required: spec.positionals },
  run: (ctx) => runKeyCustodyCommand(name, ctx.values),
}));
