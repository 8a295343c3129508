// The sync feature: the connection check (selfcheck), syncing with the service and the merchant's records it keeps
// (selfcheck/run, sync/*, currencies/list, balances/list, merchant/info). The callback listener is callbacks/handlers.ts.
import {
  clockDriftVerdict,
  CLOCK_DRIFT_WARN_SECONDS,
  selfcheckAdviceSentence,
  selfcheckStepSentence,
  type SelfcheckAdvice,
  type SelfcheckOutcome,
  type SelfcheckReport,
  type SelfcheckStep,
  type TreasuryHandlers,
} from '../../contract';
import { NotWhitelistedError, ResponseVerificationError, ServiceError, TIMESTAMP_WINDOW_SECONDS } from '../../protocol';
import { toContractError } from '../kernel/errors';
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

/** The signed-time window in whole minutes, as selfcheck's advice says it. */
const WINDOW_MINUTES = TIMESTAMP_WINDOW_SECONDS / 60;

/** A step with its outcome and the outcome's English detail (the CLI's), built by the contract. */
function stepWith(step: SelfcheckStep['step'], ok: boolean, outcome: SelfcheckOutcome): SelfcheckStep {
  return { step, ok, outcome, detail: selfcheckStepSentence(outcome) };
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
    const advice: SelfcheckAdvice[] = [];
    let drift: number | null = null;
    const client = await context.merchantClient();
    const report = (ok: boolean): SelfcheckReport => ({
      ok,
      steps,
      clockDriftSeconds: drift,
      clockVerdict: drift === null ? null : clockDriftVerdict(drift),
      advice,
      guidance: advice.map((line) => selfcheckAdviceSentence(line)),
    });
    const failed = (step: SelfcheckStep['step'], error: unknown): SelfcheckReport => {
      const message = error instanceof Error ? error.message : String(error);
      steps.push(stepWith(step, false, { code: 'failed', errorCode: toContractError(error).code, message }));
      if (error instanceof NotWhitelistedError) {
        advice.push({ code: 'notWhitelisted' });
      } else if (error instanceof ServiceError && error.reason === 'signatureFailed') {
        advice.push({ code: 'signatureFailed' });
      } else if (error instanceof ServiceError && error.reason === 'authFailed') {
        advice.push({ code: 'authFailed' });
      } else if (error instanceof ResponseVerificationError && error.failure === 'staleTimestamp') {
        // The service's signed time is outside the ±300 s window: every answer is refused, so the clock step never runs.
        advice.push({ code: 'staleTimestamp', windowMinutes: WINDOW_MINUTES });
      }
      const diagnosis = diagnoseFailure(error, drift);
      // As a sync's: an answer with an error ('service') says the service is reachable, so the desk is not offline.
      if (diagnosis && diagnosis.reason !== 'service' && context.connection.markOffline(diagnosis)) context.emit({ type: 'connection/changed', connection: context.connection.current });
      return report(false);
    };
    try {
      await client.getToken();
      steps.push(stepWith('token', true, { code: 'tokenVerified' }));
    } catch (error) {
      return failed('token', error);
    }
    try {
      const outcome = await client.selfcheck({ desk: 'treasury-desk', at: context.now() });
      drift = outcome.clockDriftSeconds;
      context.clockDriftSeconds = drift;
      context.connectionWatch.clockDrift(profileName(), drift, 'selfcheck');
      steps.push(stepWith('request', true, { code: 'requestAccepted' }));
      steps.push(stepWith('response', true, { code: 'responseVerified' }));
      steps.push(stepWith('echo', outcome.echoMatches, { code: outcome.echoMatches ? 'echoMatches' : 'echoDiffers' }));
      const verdict = clockDriftVerdict(drift);
      steps.push(
        stepWith('clock', verdict !== 'fail', {
          code: 'clockDrift',
          driftSeconds: drift,
          limitSeconds: TIMESTAMP_WINDOW_SECONDS,
          warnFromSeconds: verdict === 'warn' ? CLOCK_DRIFT_WARN_SECONDS : null,
        }),
      );
      if (verdict === 'fail') advice.push({ code: 'clockBeyond', windowMinutes: WINDOW_MINUTES });
      if (verdict === 'warn') advice.push({ code: 'clockClose', windowMinutes: WINDOW_MINUTES });
    } catch (error) {
      return failed('request', error);
    }
    try {
      const info = await client.merchantInfo();
      saveMerchantInfo(context.db, profileName(), info, context.now());
      steps.push(stepWith('version', true, { code: 'versionEnabled', apiVersion: info.apiVersion, merchantName: info.merchantName, merchantId: info.merchantId }));
    } catch (error) {
      if (error instanceof ServiceError && error.reason === 'apiVersionNotEnabled') {
        steps.push(stepWith('version', false, { code: 'versionOne' }));
        advice.push({ code: 'versionSwitch' });
        return report(false);
      }
      return failed('version', error);
    }
    if (context.connection.markOnline()) context.emit({ type: 'connection/changed', connection: context.connection.current });
    return report(steps.every((step) => step.ok));
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
