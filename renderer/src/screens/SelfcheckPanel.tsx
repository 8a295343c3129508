// Selfcheck (selfcheck/run): each step of the v2 pipeline with its verdict, the clock drift, the engine's advice
// (e.g. the whitelist explanation on "Oops"), and the spec's version 2 switch procedure with a confirm step. Steps and
// advice come as codes and values and are said in the window's language; a failed step's error message stays English.
import { escapeSingleLine, type SelfcheckStep, type SelfcheckStepName } from '../../../electron/contract';
import { DateTime } from '../components/DateTime';
import { EngineFailure } from '../components/EngineFailure';
import { engineTextNode } from '../components/EngineText';
import { ErrorNotice } from '../components/ErrorNotice';
import { t, tRich, type MessageId } from '../i18n';
import { connectionCauseFor, selfcheckAdviceFor, selfcheckStepFor } from '../i18n/sentences';
import { useProfilesStore } from '../stores/profiles';
import { useSyncStore } from '../stores/sync';

const STEP_LABELS: Readonly<Record<SelfcheckStepName, MessageId>> = {
  token: 'account.selfcheck.step.token',
  request: 'account.selfcheck.step.request',
  response: 'account.selfcheck.step.response',
  echo: 'account.selfcheck.step.echo',
  clock: 'account.selfcheck.step.clock',
  version: 'account.selfcheck.step.version',
};

/** A step's label; a step this renderer does not know yet shows its name. */
function stepLabel(step: SelfcheckStepName): string {
  const id = STEP_LABELS[step] as MessageId | undefined;
  return id === undefined ? step : t(id);
}

/** What a step found, in the window's language; a failure as its kind of problem, its English message beneath. */
function StepDetail({ step }: { readonly step: SelfcheckStep }): React.JSX.Element {
  const { outcome } = step;
  if (outcome.code === 'failed') return <EngineFailure code={outcome.errorCode} message={escapeSingleLine(outcome.message)} />;
  return <>{selfcheckStepFor(outcome)}</>;
}

function stepTone(ok: boolean, warning: boolean): 'ok' | 'warn' | 'bad' {
  if (!ok) return 'bad';
  return warning ? 'warn' : 'ok';
}

/** Clock drift in words: "+12 s (the service is ahead)". */
export function describeDrift(seconds: number): string {
  const rounded = Math.round(seconds);
  if (rounded === 0) return t('account.selfcheck.drift.inStep');
  // The signed figure as today's text ("+12", "-7"), not regrouped: the sign is part of the reading.
  return rounded > 0 ? t('account.selfcheck.drift.serviceAhead', { seconds: `+${rounded}` }) : t('account.selfcheck.drift.computerAhead', { seconds: `${rounded}` });
}

export function SelfcheckPanel(): React.JSX.Element {
  const { running, report, error, at } = useProfilesStore((state) => state.selfcheck);
  const drift = report?.clockDriftSeconds ?? null;
  const failed = report?.steps.filter((step) => !step.ok) ?? [];
  // The v2 pipeline itself passed and only the account's version is behind: that is the switch still to come.
  const onlyVersionBehind = report !== null && !report.ok && failed.length > 0 && failed.every((step) => step.step === 'version');
  const pipelinePassed = report !== null && (report.ok || onlyVersionBehind);
  const verdict = report?.clockVerdict ?? null;
  const clockProblem = verdict === 'fail' || failed.some((step) => step.step === 'clock' || /clock|timestamp/i.test(step.detail));
  const whitelistProblem = failed.some((step) => /oops|whitelist/i.test(step.detail));
  const driftLevel = verdict === null ? 'none' : verdict === 'fail' ? 'bad' : verdict === 'warn' ? 'warn' : 'good';
  return (
    <section className="card" aria-labelledby="selfcheck-title" data-testid="@selfcheck">
      <div className="card__head">
        <h2 id="selfcheck-title">{t('account.selfcheck.title')}</h2>
        <button
          type="button"
          className="button button--primary"
          disabled={running}
          onClick={() => void useProfilesStore.getState().runSelfcheck()}
          data-testid="@selfcheck/run-button"
        >
          {running ? t('account.selfcheck.checking') : report === null ? t('account.selfcheck.run') : t('account.selfcheck.runAgain')}
        </button>
      </div>
      <p className="muted">{t('account.selfcheck.intro')}</p>
      <div aria-live="polite">
        {running ? <p role="status">{t('account.selfcheck.talking')}</p> : null}
        {error === null ? null : (
          <>
            <ErrorNotice error={error} testId="@selfcheck/error" title={t('account.selfcheck.couldNotRun')} />
            {error.code === 'notWhitelisted' ? <WhitelistExplanation /> : null}
          </>
        )}
        {report === null ? null : (
          <div className="stack" data-testid="@selfcheck/report">
            <p className={`verdict verdict--${report.ok ? 'ok' : onlyVersionBehind ? 'warn' : 'bad'}`} data-testid="@selfcheck/result">
              {report.ok ? t('account.selfcheck.passed') : onlyVersionBehind ? t('account.selfcheck.onlyVersionBehind') : t('account.selfcheck.failed')}
              {at === null ? null : <span className="muted"> {tRich('account.selfcheck.ranAt', { at: <DateTime at={at} /> })}</span>}
            </p>
            <ol className="steps" aria-label={t('account.selfcheck.steps')}>
              {report.steps.map((step) => (
                <li key={step.step} className={`steps__item steps__item--${stepTone(step.ok, step.step === 'clock' && verdict === 'warn')}`} data-testid={`@selfcheck/step-${step.step}`}>
                  <span className="steps__icon" aria-hidden="true">
                    {!step.ok ? '✕' : step.step === 'clock' && verdict === 'warn' ? '!' : '✓'}
                  </span>
                  <span className="steps__label">
                    {stepLabel(step.step)}
                    <span className="visually-hidden">{!step.ok ? t('account.selfcheck.stepFailed') : step.step === 'clock' && verdict === 'warn' ? t('account.selfcheck.stepWarned') : t('account.selfcheck.stepPassed')}</span>
                  </span>
                  <span className="steps__detail">
                    <StepDetail step={step} />
                  </span>
                </li>
              ))}
            </ol>
            <p className={`drift drift--${driftLevel}`} data-testid="@selfcheck/drift">
              {t('account.selfcheck.driftLine', { drift: drift === null ? t('account.selfcheck.driftUnknown') : describeDrift(drift) })}
              {driftLevel === 'bad' ? `. ${t('account.selfcheck.driftBeyond')}` : null}
              {driftLevel === 'warn' ? `. ${t('account.selfcheck.driftClose')}` : null}
            </p>
            {report.advice.length === 0 ? null : (
              <div className="notice notice--info" data-testid="@selfcheck/guidance">
                <p className="notice__title">{t('account.selfcheck.whatNext')}</p>
                <ul>
                  {report.advice.map((line) => (
                    <li key={line.code}>{selfcheckAdviceFor(line)}</li>
                  ))}
                </ul>
              </div>
            )}
            {whitelistProblem ? <WhitelistExplanation /> : null}
            {clockProblem ? <ClockExplanation /> : null}
          </div>
        )}
      </div>
      <VersionSwitchGuide passed={pipelinePassed} />
    </section>
  );
}

export function WhitelistExplanation(): React.JSX.Element {
  return (
    <div className="notice notice--warn" data-testid="@selfcheck/whitelist">
      <p className="notice__title">{t('account.selfcheck.whitelist.title')}</p>
      <p>{tRich('account.selfcheck.whitelist.body', { code: (chunks) => <code>{chunks}</code> })}</p>
    </div>
  );
}

export function ClockExplanation(): React.JSX.Element {
  return (
    <div className="notice notice--warn" data-testid="@selfcheck/clock">
      <p className="notice__title">{t('account.selfcheck.clock.title')}</p>
      <p>{t('account.selfcheck.clock.body')}</p>
    </div>
  );
}

function VersionSwitchGuide({ passed }: { readonly passed: boolean }): React.JSX.Element {
  const running = useSyncStore((state) => state.running);
  const report = useSyncStore((state) => state.lastReport);
  const error = useSyncStore((state) => state.error);
  return (
    <details className="guide" open={passed} data-testid="@selfcheck/version-guide">
      <summary>{t('account.selfcheck.guide.title')}</summary>
      <ol>
        <li className={passed ? 'guide__done' : undefined}>{passed ? t('account.selfcheck.guide.passDone') : t('account.selfcheck.guide.pass')}</li>
        <li>{t('account.selfcheck.guide.ask')}</li>
        <li>
          {tRich('account.selfcheck.guide.confirm', { code: (chunks) => <code>{chunks}</code> })}
          <div className="guide__action">
            <button type="button" className="button button--small" disabled={running} onClick={() => void useSyncStore.getState().run()} data-testid="@selfcheck/confirm-v2">
              {running ? t('account.selfcheck.guide.calling') : t('account.selfcheck.guide.confirmButton')}
            </button>
            {report === null || error !== null ? null : report.connection.online ? (
              <span className="verdict verdict--ok" role="status" data-testid="@selfcheck/v2-outcome">
                {t('account.selfcheck.guide.confirmed', { balances: report.balances })}
              </span>
            ) : (
              <span className="verdict verdict--bad" role="status" data-testid="@selfcheck/v2-outcome">
                {tRich('account.selfcheck.guide.notConfirmed', {
                  reason:
                    report.connection.cause !== undefined
                      ? connectionCauseFor(report.connection.cause, engineTextNode)
                      : (report.connection.message ?? t('account.selfcheck.guide.unreachable')),
                })}
              </span>
            )}
          </div>
          <ErrorNotice error={error} testId="@selfcheck/v2-error" />
        </li>
      </ol>
    </details>
  );
}
