// The settings feature: desk-wide settings an admin changes (lock timeout, stuck-order thresholds, reporting time
// zone) and the diagnostics export (settings/*, diagnostics/export).
import type { TreasuryHandlers } from '../../contract';
import type { Kernel } from '../kernel/kernel';
import type { AuditRecorder } from '../audit';
import { getProfile, listProfiles, type ProfileSelection, setSetting, SETTING_KEYS } from '../profiles';
import type { MerchantConnection } from '../connection';
import { applicationLogFacts, crashReports, diagnosticsText } from '../diagnostics';
import { DeskError } from '../kernel/errors';
import { appLog, secretRedactor } from '../log';
import { actingAs, signAction, type OperatorCredentials } from '../operators';
import type { SessionLock } from '../session';
import { userVersion } from '../store/database';
import type { SyncService } from '../sync';
import { setStuckThresholds, stuckThresholds, stuckThresholdsView } from '../withdrawals';
import { type Handle } from '../kernel/handle';
import { writeFileAtomically } from '../files/named-files';

export interface SettingsFeatureDeps {
  readonly context: Kernel & AuditRecorder & ProfileSelection & MerchantConnection;
  readonly session: SessionLock;
  /** For the sync state in diagnostics. */
  readonly sync: SyncService;
  /** The application's version, for diagnostics. */
  readonly appVersion: string;
}

export function settingsHandlers(
  { context, session, sync, appVersion }: SettingsFeatureDeps,
  handle: Handle,
): Pick<TreasuryHandlers, 'settings/setLockTimeout' | 'settings/stuckThresholds' | 'settings/setStuckThresholds' | 'settings/setReportingTimeZone' | 'diagnostics/export'> {
  /**
   * The admin changing a desk-wide setting (lock timeout, reporting time zone): it applies to every profile on this
   * desk, so the demo's operators (published passphrases) may not change it while real profiles exist.
   */
  async function deskSettingsAdmin(as: OperatorCredentials) {
    const operator = await actingAs(context, as, 'manageSettings');
    if (context.activeProfile().demo && listProfiles(context.db).some((profile) => !profile.demo)) {
      throw new DeskError('forbidden', 'demo operators cannot change settings that also apply to the real merchant profiles on this desk: select a real profile and act as one of its admins');
    }
    return operator;
  }

  return {
    'diagnostics/export': handle('diagnostics/export', (request) => {
      const active = context.activeProfileName();
      const text = diagnosticsText(
        {
          appVersion,
          face: appLog.face ?? 'unknown',
          desk: {
            schemaVersion: userVersion(context.db),
            profiles: listProfiles(context.db).length,
            activeProfileIsDemo: active === undefined ? null : (getProfile(context.db, active)?.demo ?? null),
            locked: session.locked,
            clockDriftSeconds: context.clockDriftSeconds,
          },
          connection: context.connection.current,
          sync: sync.status(),
          log: applicationLogFacts(),
          crashes: crashReports.facts(),
          now: new Date(context.now()),
        },
        secretRedactor,
      );
      writeFileAtomically(request.path, (append) => append(text));
      appLog.info('diagnostics: exported', { bytes: Buffer.byteLength(text, 'utf8') });
      return { path: request.path, bytes: Buffer.byteLength(text, 'utf8') };
    }),

    'settings/setLockTimeout': handle('settings/setLockTimeout', async (request) => {
      const operator = await deskSettingsAdmin(request.as);
      await signAction(operator, 'settings/lockTimeout', '', { seconds: request.seconds }, () => {
        setSetting(context.db, SETTING_KEYS.lockTimeoutSeconds, request.seconds, context.now());
      });
      return session.changed();
    }),
    'settings/stuckThresholds': handle('settings/stuckThresholds', () => stuckThresholdsView(context)),
    'settings/setStuckThresholds': handle('settings/setStuckThresholds', async (request) => {
      const operator = await deskSettingsAdmin(request.as);
      const before = stuckThresholds(context);
      // What setStuckThresholds will store (it refuses, rolling the signed row back, when the thresholds are bad).
      const after = { ...before, ...request.thresholds };
      await signAction(operator, 'settings/stuckThresholds', '', { changed: request.thresholds, before, after }, () => {
        setStuckThresholds(context, request.thresholds);
      });
      // Every order's stuck flag may have changed.
      context.emit({ type: 'withdrawals/changed', id: null });
      return stuckThresholdsView(context);
    }),
    'settings/setReportingTimeZone': handle('settings/setReportingTimeZone', async (request) => {
      const operator = await deskSettingsAdmin(request.as);
      const before = session.reportingTimeZone();
      await signAction(operator, 'settings/reportingTimeZone', '', { timeZone: request.timeZone, before }, () => {
        setSetting(context.db, SETTING_KEYS.reportingTimeZone, request.timeZone, context.now());
      });
      return session.changed();
    }),
  };
}
