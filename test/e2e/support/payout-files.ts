// E2E support: payout CSV files as a person would have saved them, with fresh destinations.
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** A fresh EVM address (20 random bytes). */
export function evmAddress(): string {
  return `0x${randomBytes(20).toString('hex')}`;
}

/** Writes a payout CSV (header and lines) into the test's folder, as the person would have saved it. */
export function writePayoutCsv(folder: string, name: string, lines: readonly (readonly string[])[]): string {
  const path = join(folder, name);
  writeFileSync(path, ['currency,amount,toAddress,memo', ...lines.map((line) => line.join(','))].join('\r\n') + '\r\n');
  return path;
}
