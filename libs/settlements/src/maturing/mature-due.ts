import type { CommandBus } from '@nestjs/cqrs';
import { MAX_MATURED_PER_COMMAND } from '@payouts/domain';
import { MatureProceedsCommand } from './mature-proceeds';

/** Tiger style: MatureProceeds commands per ledger at one go; a longer backlog waits for the next pass. */
export const MAX_MATURING_COMMANDS_PER_LEDGER = 50;

/**
 * Matures every pending payment of one ledger whose time has come (on the ledger environment's
 * clock), a bounded number of commands at once; the number of payments it cleared.
 */
export async function matureDue(commands: CommandBus, ledgerStreamId: string): Promise<number> {
  let matured = 0;
  for (let command = 0; command < MAX_MATURING_COMMANDS_PER_LEDGER; command += 1) {
    const result = await commands.execute(new MatureProceedsCommand(ledgerStreamId));
    matured += result.matured;
    if (result.matured < MAX_MATURED_PER_COMMAND) break;
  }
  return matured;
}
