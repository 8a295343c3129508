// The numbered migrations (0010, 0020, … in steps of ten), in order; their runner is runner.ts. A migration, once
// released, never changes.
import { migration0010 } from './0010-initial';
import { migration0020 } from './0020-deposit-search';
import { migration0030 } from './0030-audit-log';
import { migration0040 } from './0040-request-approvals';
import { migration0050 } from './0050-signed-approvals';
import { migration0060 } from './0060-notifications';
import { migration0070 } from './0070-seen-nonces';
import { migration0080 } from './0080-merchant-info';
import { migration0090 } from './0090-deposit-sightings';
import { migration0100 } from './0100-deposit-intake';
import { migration0110 } from './0110-payout-batches';
import { migration0120 } from './0120-labels';
import { migration0140 } from './0140-connection-log';
import { migration0150 } from './0150-team-mode';
import { migration0160 } from './0160-team-refusals-now';
import { migration0170 } from './0170-audit-viewer-indexes';
import { migration0180 } from './0180-webhooks';
import type { Migration } from './runner';

export { assertMigrationList, latestVersion, readUserVersion, runMigrations, trigramAvailable, type Migration } from './runner';

export const MIGRATIONS: readonly Migration[] = [
  migration0010,
  migration0020,
  migration0030,
  migration0040,
  migration0050,
  migration0060,
  migration0070,
  migration0080,
  migration0090,
  migration0100,
  migration0110,
  migration0120,
  migration0140,
  migration0150,
  migration0160,
  migration0170,
  migration0180,
];
