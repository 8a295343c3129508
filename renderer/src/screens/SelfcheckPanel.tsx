// Selfcheck (selfcheck/run): each step of the v2 pipeline with its verdict, the clock drift, the engine's guidance
// (e.g. the whitelist explanation on "Oops"), and the spec's version 2 switch procedure with a confirm step.
import type { SelfcheckStepName } from '../../../electron/contract';
import { DateTime } from '../components/DateTime';
import { ErrorNotice } from '../components/ErrorNotice';
import { useProfilesStore } from '../stores/profiles';
import { useSyncStore } from '../stores/sync';

const STEP_LABELS: Readonly<Record<SelfcheckStepName, string>> = {
  token: 'Get a token (getToken)',
  request: 'Encrypt and sign the request',
  response: 'Verify and decrypt the response',
  echo: 'The service echoed the payload unchanged',
  clock: 'Clocks agree within ±5 minutes',
  version: 'Protocol version 2',
};

function stepTone(ok: boolean, warning: boolean): 'ok' | 'warn' | 'bad' {
  if (!ok) return 'bad';
  return warning ? 'warn' : 'ok';
}

/** Clock drift in words: "+12 s (the service is ahead)". */
export function describeDrift(seconds: number): string {
  const rounded = Math.round(seconds);
  if (rounded === 0) return '0 s (in step)';
  const side = rounded > 0 ? 'the service is ahead of this computer' : 'this computer is ahead of the service';
  return `${rounded > 0 ? '+' : ''}${rounded} s (${side})`;
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
        <h2 id="selfcheck-title">Connection selfcheck</h2>
        <button
          type="button"
          className="button button--primary"
          disabled={running}
          onClick={() => void useProfilesStore.getState().runSelfcheck()}
          data-testid="@selfcheck/run-button"
        >
          {running ? 'Checking…' : report === null ? 'Run selfcheck' : 'Run again'}
        </button>
      </div>
      <p className="muted">
        Selfcheck sends one signed, encrypted request to the service&apos;s v2 selfcheck endpoint and verifies the answer.
        It changes nothing on the account and can be run any time.
      </p>
      <div aria-live="polite">
        {running ? <p role="status">Talking to the service…</p> : null}
        {error === null ? null : (
          <>
            <ErrorNotice error={error} testId="@selfcheck/error" title="Selfcheck could not run" />
            {error.code === 'notWhitelisted' ? <WhitelistExplanation /> : null}
          </>
        )}
        {report === null ? null : (
          <div className="stack" data-testid="@selfcheck/report">
            <p className={`verdict verdict--${report.ok ? 'ok' : onlyVersionBehind ? 'warn' : 'bad'}`} data-testid="@selfcheck/result">
              {report.ok
                ? 'Selfcheck passed.'
                : onlyVersionBehind
                  ? 'The version 2 pipeline passed; the account itself is still on protocol version 1.'
                  : 'Selfcheck failed.'}
              {at === null ? null : <span className="muted"> Ran at <DateTime at={at} />.</span>}
            </p>
            <ol className="steps" aria-label="Selfcheck steps">
              {report.steps.map((step) => (
                <li key={step.step} className={`steps__item steps__item--${stepTone(step.ok, step.step === 'clock' && verdict === 'warn')}`} data-testid={`@selfcheck/step-${step.step}`}>
                  <span className="steps__icon" aria-hidden="true">
                    {!step.ok ? '✕' : step.step === 'clock' && verdict === 'warn' ? '!' : '✓'}
                  </span>
                  <span className="steps__label">
                    {STEP_LABELS[step.step] ?? step.step}
                    <span className="visually-hidden">{!step.ok ? ': failed' : step.step === 'clock' && verdict === 'warn' ? ': passed with a warning' : ': passed'}</span>
                  </span>
                  <span className="steps__detail">{step.detail}</span>
                </li>
              ))}
            </ol>
            <p className={`drift drift--${driftLevel}`} data-testid="@selfcheck/drift">
              Clock drift: {drift === null ? 'unknown (no answer from the service)' : describeDrift(drift)}
              {driftLevel === 'bad' ? ". That is beyond the ±5 minute window: set this computer's clock to synchronise automatically (NTP)." : null}
              {driftLevel === 'warn' ? '. Close to the ±5 minute window: check the clock synchronisation.' : null}
            </p>
            {report.guidance.length === 0 ? null : (
              <div className="notice notice--info" data-testid="@selfcheck/guidance">
                <p className="notice__title">What to do next</p>
                <ul>
                  {report.guidance.map((line) => (
                    <li key={line}>{line}</li>
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
      <p className="notice__title">This workstation&apos;s IP address is not whitelisted</p>
      <p>
        The service answered with the plain text <code>Oops</code>: it only accepts merchant requests from IP addresses on
        your account&apos;s whitelist. Ask the platform to add this office&apos;s public IP address, then run selfcheck again.
        Nothing is wrong with your keys.
      </p>
    </div>
  );
}

export function ClockExplanation(): React.JSX.Element {
  return (
    <div className="notice notice--warn" data-testid="@selfcheck/clock">
      <p className="notice__title">This computer&apos;s clock is off</p>
      <p>
        Every signed request and answer carries a timestamp, and both sides refuse one more than 5 minutes away from their
        own clock. Turn on automatic time synchronisation (NTP) for this workstation, then run selfcheck again. Nothing is
        wrong with your keys.
      </p>
    </div>
  );
}

function VersionSwitchGuide({ passed }: { readonly passed: boolean }): React.JSX.Element {
  const running = useSyncStore((state) => state.running);
  const report = useSyncStore((state) => state.lastReport);
  const error = useSyncStore((state) => state.error);
  return (
    <details className="guide" open={passed} data-testid="@selfcheck/version-guide">
      <summary>Switching the account to protocol version 2</summary>
      <ol>
        <li className={passed ? 'guide__done' : undefined}>
          Pass selfcheck here{passed ? ' — done.' : '.'} Selfcheck is always validated under version 2, whatever the
          account&apos;s current version.
        </li>
        <li>
          Ask the platform&apos;s staff to switch your merchant account to version 2. Only they can do it; once switched,
          every business request is validated under version 2 at once.
        </li>
        <li>
          Confirm with one business call (merchantInfo, which reads the balances). Until the switch, it fails with{' '}
          <code>apiVersionNotEnabled</code>.
          <div className="guide__action">
            <button type="button" className="button button--small" disabled={running} onClick={() => void useSyncStore.getState().run()} data-testid="@selfcheck/confirm-v2">
              {running ? 'Calling…' : 'Confirm with merchantInfo'}
            </button>
            {report === null || error !== null ? null : report.connection.online ? (
              <span className="verdict verdict--ok" role="status" data-testid="@selfcheck/v2-outcome">
                Confirmed: the service answered merchantInfo ({report.balances} balances read).
              </span>
            ) : (
              <span className="verdict verdict--bad" role="status" data-testid="@selfcheck/v2-outcome">
                Not confirmed: {report.connection.message ?? 'the service could not be reached.'}
              </span>
            )}
          </div>
          <ErrorNotice error={error} testId="@selfcheck/v2-error" />
        </li>
      </ol>
    </details>
  );
}
