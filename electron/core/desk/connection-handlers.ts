// The connection feature: the connection panel (connection/panel), whether the connection can be trusted in one
// answer. Reads the cache and the engine's memory only (never calls the service); fingerprints come from the
// credentials' public halves, the token only as its lifetime. Invariant: no key, secret or token in the answer.
import type { ConnectionPanelView, TreasuryHandlers } from '../../contract';
import type { Kernel } from '../kernel/kernel';
import type { AuditRecorder } from '../audit';
import type { ProfileSelection, ProfileSwitch } from '../profiles';
import { clockDriftHistory, lastWhitelistRefusal, type MerchantConnection } from '../connection';
import type { KeychainAccess } from '../secrets';
import { merchantInfoView } from '../merchant';
import { profileSummary } from './profiles';
import type { SyncService } from '../sync';
import type { Handle } from '../kernel/handle';

export interface ConnectionFeatureDeps {
  readonly context: Kernel & AuditRecorder & ProfileSelection & MerchantConnection & ProfileSwitch & KeychainAccess;
  /** For each resource's sync freshness. */
  readonly sync: SyncService;
}

export function connectionHandlers({ context, sync }: ConnectionFeatureDeps, handle: Handle): Pick<TreasuryHandlers, 'connection/panel'> {
  async function panel(): Promise<ConnectionPanelView> {
    const profile = context.activeProfile();
    const summary = await profileSummary(context, profile);
    const merchant = merchantInfoView(context.db, profile.name);
    const refusal = lastWhitelistRefusal(context.db, profile.name);
    return {
      profile: profile.name,
      baseUrl: summary.baseUrl,
      merchantId: summary.merchantId,
      merchantName: merchant?.merchantName ?? null,
      apiVersion: merchant?.apiVersion ?? null,
      merchantInfoAt: merchant?.fetchedAt ?? null,
      connection: context.connection.current,
      token: await context.tokenLifetime(),
      clockDrift: clockDriftHistory(context.db, profile.name),
      platformKeyFingerprint: summary.platformKeyFingerprint,
      merchantKeyFingerprint: summary.merchantKeyFingerprint,
      lastWhitelistRefusal: refusal ?? null,
      sync: sync.status().resources,
    };
  }

  return {
    'connection/panel': handle('connection/panel', () => panel()),
  };
}
