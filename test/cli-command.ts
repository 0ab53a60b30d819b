/**
 * The `meeplekit` command as the process tests start it: Node running the bundle that
 * test/global-setup.ts built once for this run from src/cli/main.ts.
 */
import { inject } from 'vitest';

/** The command line that runs `meeplekit`: `[node, bundle]`; append the command's arguments. */
export function cliCommand(): [string, string] {
  return [process.execPath, inject('cli')];
}
