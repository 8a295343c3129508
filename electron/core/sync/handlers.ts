// The sync feature: the connection check (selfcheck), syncing with the service and the merchant's records it keeps
// (selfcheck/run, sync/*, currencies/list, balances/list, merchant/info). The callback listener is callbacks/handlers.ts.
import {
  clockDriftVerdict,
  CLOCK_DRIFT_WARN_SECONDS,
  type SelfcheckReport,
  type SelfcheckStep,
  type TreasuryHandlers,
} from '../../contract';
import { NotWhitelistedError, ResponseVerificationError, ServiceError, TIMESTAMP_WINDOW_SECONDS } from '../../protocol';
import type { Kernel } from '../kernel/kernel';
import type { ProfileSelection } from '../profiles';
import { diagnoseFailure, type MerchantConnection } from '../connection';
import { balanceViews, currencyViews, merchantInfoView, saveMerchantInfo } from '../merchant';
import type { SyncService } from './sync';
import type { Handle } from '../kernel/handle';

export interface SyncFeatureDeps {
  readonly context: Kernel & ProfileSelection & MerchantConnection;
  readonly sync: SyncService;
}

export function syncHandlers(
  { context, sync }: SyncFeatureDeps,
  handle: Handle,
): Pick<
  TreasuryHandlers,
  'selfcheck/run' | 'sync/run' | 'sync/status' | 'sync/cancel' | 'sync/verify' | 'currencies/list' | 'balances/list' | 'merchant/info'
> {
  const profileName = (): string => context.activeProfile().name;

  async function runSelfcheck(): Promise<SelfcheckReport> {
    const steps: SelfcheckStep[] = [];
    const guidance: string[] = [];
    let drift: number | null = null;
    const client = await context.merchantClient();
    const failed = (step: SelfcheckStep['step'], error: unknown): SelfcheckReport => {
      const message = error instanceof Error ? error.message : String(error);
      steps.push({ step, ok: false, detail: message });
      if (error instanceof NotWhitelistedError) {
        guidance.push("This workstation's public IP address is not on the merchant's whitelist: ask the platform to add it, then run selfcheck again.");
      } else if (error instanceof ServiceError && error.reason === 'signatureFailed') {
        guidance.push('signatureFailed: check that the merchant public key registered with the platform matches this profile, and that the clock is right.');
      } else if (error instanceof ServiceError && error.reason === 'authFailed') {
        guidance.push('authFailed: the merchant ID or secret is wrong.');
      } else if (error instanceof ResponseVerificationError && error.failure === 'staleTimestamp') {
        // The service's signed time is outside the ±300 s window: every answer is refused, so the clock step never runs.
        guidance.push("Correct this computer's clock (enable automatic time synchronisation): the service's answers carry a time more than 5 minutes away from it and are refused.");
      }
      const diagnosis = diagnoseFailure(error, drift);
      // As a sync's: an answer with an error ('service') says the service is reachable, so the desk is not offline.
      if (diagnosis && diagnosis.reason !== 'service' && context.connection.markOffline(diagnosis)) context.emit({ type: 'connection/changed', connection: context.connection.current });
      return { ok: false, steps, clockDriftSeconds: drift, clockVerdict: drift === null ? null : clockDriftVerdict(drift), guidance };
    };
    try {
      await client.getToken();
      steps.push({ step: 'token', ok: true, detail: 'getToken answered with a verified, decrypted token' });
    } catch (error) {
      return failed('token', error);
    }
    try {
      const outcome = await client.selfcheck({ desk: 'treasury-desk', at: context.now() });
      drift = outcome.clockDriftSeconds;
      context.clockDriftSeconds = drift;
      context.connectionWatch.clockDrift(profileName(), drift, 'selfcheck');
      steps.push({ step: 'request', ok: true, detail: 'the service accepted our token, timestamp, nonce, signature and ciphertext' });
      steps.push({ step: 'response', ok: true, detail: 'the answer passed window, nonce, signature and decryption checks' });
      steps.push({ step: 'echo', ok: outcome.echoMatches, detail: outcome.echoMatches ? 'the payload came back unchanged' : 'the echoed payload differs from what was sent' });
      const verdict = clockDriftVerdict(drift);
      steps.push({
        step: 'clock',
        ok: verdict !== 'fail',
        detail:
          `the service's clock is ${Math.abs(drift)} s ${drift >= 0 ? 'ahead of' : 'behind'} this computer (the limit is ${TIMESTAMP_WINDOW_SECONDS} s` +
          `${verdict === 'warn' ? `; from ${CLOCK_DRIFT_WARN_SECONDS} s on it is worth fixing before requests fail` : ''})`,
      });
      if (verdict === 'fail') guidance.push("Correct this computer's clock (enable automatic time synchronisation): requests fail beyond 5 minutes of drift.");
      if (verdict === 'warn') guidance.push("Check this computer's clock synchronisation: the drift is within the 5-minute window but close to it, and requests fail beyond it.");
    } catch (error) {
      return failed('request', error);
    }
    try {
      const info = await client.merchantInfo();
      saveMerchantInfo(context.db, profileName(), info, context.now());
      steps.push({ step: 'version', ok: true, detail: `the account is on protocol version ${info.apiVersion}: business calls work (merchant "${info.merchantName}", ${info.merchantId})` });
    } catch (error) {
      if (error instanceof ServiceError && error.reason === 'apiVersionNotEnabled') {
        steps.push({ step: 'version', ok: false, detail: 'selfcheck passed, but the account is still on protocol version 1' });
        guidance.push(
          'Version 2 switch: selfcheck has passed; ask the platform staff to switch the account to protocol version 2 (merchants cannot do it), then run selfcheck again: merchantInfo confirms the switch.',
        );
        return { ok: false, steps, clockDriftSeconds: drift, clockVerdict: drift === null ? null : clockDriftVerdict(drift), guidance };
      }
      return failed('version', error);
    }
    if (context.connection.markOnline()) context.emit({ type: 'connection/changed', connection: context.connection.current });
    return { ok: steps.every((step) => step.ok), steps, clockDriftSeconds: drift, clockVerdict: drift === null ? null : clockDriftVerdict(drift), guidance };
  }

  return {
    'selfcheck/run': handle('selfcheck/run', () => runSelfcheck()),
    'sync/run': handle('sync/run', (request) => sync.run({ full: request.full === true })),
    'sync/status': handle('sync/status', () => sync.status()),
    'sync/cancel': handle('sync/cancel', () => ({ cancelled: sync.cancel() })),
    'sync/verify': handle('sync/verify', () => sync.verifyDeposits()),
    'currencies/list': handle('currencies/list', () => currencyViews(context.db, profileName())),
    'balances/list': handle('balances/list', () => balanceViews(context.db, profileName())),
    'merchant/info': handle('merchant/info', () => ({ merchant: merchantInfoView(context.db, profileName()) })),
  };
}
