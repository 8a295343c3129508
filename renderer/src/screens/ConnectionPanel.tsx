// The connection panel (connection/panel): whether the connection can be trusted, in one place: the service address,
// the merchant and API version, the session token's age and estimated expiry (never the token), the clock drift over
// time (a chart for the eye, the readings in a table), both key fingerprints, the last whitelist refusal and each
// resource's sync freshness. Read again after each selfcheck and whenever the sync state changes.
import { useEffect } from 'react';
import { CLOCK_DRIFT_LIMIT_SECONDS, clockDriftVerdict, type ClockDriftReadingView, type ConnectionPanelView, type TokenLifetimeView } from '../../../electron/contract';
import { DateTime } from '../components/DateTime';
import { ErrorNotice } from '../components/ErrorNotice';
import { SyncFreshnessTable } from '../components/SyncFreshnessTable';
import { TimeSeriesChart } from '../components/TimeSeriesChart';
import { formatDuration, timeAgo } from '../format';
import { useNow } from '../hooks';
import { useConnectionPanelStore } from '../stores/connection-panel';
import { useProfilesStore } from '../stores/profiles';
import { useSyncStore } from '../stores/sync';

/** How many drift readings the table shows before "all readings". */
const RECENT_READINGS = 10;

export function ConnectionPanel(): React.JSX.Element {
  const panel = useConnectionPanelStore((state) => state.panel);
  const error = useConnectionPanelStore((state) => state.error);
  const selfcheckAt = useProfilesStore((state) => state.selfcheck.at);
  // A new sync status (a sync finished, the connection changed, balances arrived) means new facts here too.
  const status = useSyncStore((state) => state.status);
  const now = useNow(10_000);
  useEffect(() => {
    void useConnectionPanelStore.getState().load();
  }, [selfcheckAt, status]);
  return (
    <section className="card" aria-labelledby="connection-panel-title" data-testid="@connection">
      <h2 id="connection-panel-title">Connection to the service</h2>
      <ErrorNotice error={error} />
      {panel === null ? null : <PanelFacts panel={panel} now={now} />}
    </section>
  );
}

function PanelFacts({ panel, now }: { readonly panel: ConnectionPanelView; readonly now: number }): React.JSX.Element {
  const refusal = panel.lastWhitelistRefusal;
  return (
    <>
      <dl className="facts">
        <dt>Service</dt>
        <dd className="mono" data-testid="@connection/base-url">
          {panel.baseUrl}
        </dd>
        <dt>Merchant</dt>
        <dd data-testid="@connection/merchant">
          {panel.merchantName === null || panel.merchantName === '' ? 'not reported yet' : panel.merchantName} <span className="mono muted">{panel.merchantId}</span>
        </dd>
        <dt>API version</dt>
        <dd data-testid="@connection/api-version">{panel.apiVersion ?? 'not reported yet'}</dd>
        <dt>Connection</dt>
        <dd data-testid="@connection/state">
          {panel.connection.online ? 'online' : `offline: ${panel.connection.message ?? panel.connection.reason ?? 'unknown reason'}`}
          {panel.connection.lastContactAt === null ? null : <span className="muted small"> (last verified answer {timeAgo(panel.connection.lastContactAt, now)})</span>}
        </dd>
        <dt>Session token</dt>
        <dd data-testid="@connection/token">
          <TokenFacts token={panel.token} now={now} />
        </dd>
        <dt>Platform key</dt>
        <dd className="mono small" data-testid="@connection/platform-fingerprint">
          {panel.platformKeyFingerprint ?? 'unreadable: re-import the credentials'}
        </dd>
        <dt>Merchant key</dt>
        <dd className="mono small" data-testid="@connection/merchant-fingerprint">
          {panel.merchantKeyFingerprint ?? 'unreadable: re-import the credentials'}
        </dd>
        <dt>Last whitelist refusal</dt>
        <dd data-testid="@connection/last-refusal">
          {refusal === null ? (
            'never'
          ) : (
            <>
              <DateTime at={refusal.refusedAt} /> ({timeAgo(refusal.refusedAt, now)}), on {refusal.endpoint}: the service answered &quot;Oops&quot;, so this
              workstation&apos;s public IP address was not on the merchant&apos;s whitelist then.
            </>
          )}
        </dd>
      </dl>
      <p className="muted small">
        Fingerprints are SHA-256 of each public key (DER SubjectPublicKeyInfo): compare them with the ones the platform shows for the merchant.
      </p>
      <ClockDriftHistory readings={panel.clockDrift} />
      <h3>Sync freshness</h3>
      <SyncFreshnessTable resources={panel.sync} now={now} testId="@connection/sync" />
    </>
  );
}

function TokenFacts({ token, now }: { readonly token: TokenLifetimeView | null; readonly now: number }): React.JSX.Element {
  if (token === null) return <>none held in this run: the next request to the service asks for one</>;
  const ageSeconds = Math.max(0, Math.round((now - token.issuedAt) / 1000));
  const leftSeconds = Math.round((token.expiresAt - now) / 1000);
  return (
    <>
      issued {ageSeconds < 60 ? 'under a minute' : formatDuration(ageSeconds)} ago; expires{' '}
      {leftSeconds > 0 ? <>in about {formatDuration(leftSeconds)}</> : 'about now'} (<DateTime at={token.expiresAt} />, estimated: 8 h after its last use, at most
      24 h after issue)
    </>
  );
}

function ClockDriftHistory({ readings }: { readonly readings: readonly ClockDriftReadingView[] }): React.JSX.Element {
  const latest = readings.at(-1);
  const recent = readings.slice(-RECENT_READINGS).reverse();
  return (
    <>
      <h3>Clock drift</h3>
      {latest === undefined ? (
        <p className="muted" data-testid="@connection/drift-none">
          Not measured yet: run the selfcheck (every verified answer from the service is measured too, once a minute at most).
        </p>
      ) : (
        <>
          <p data-testid="@connection/drift-latest">
            Latest: the service&apos;s clock is {Math.abs(latest.driftSeconds)} s {latest.driftSeconds >= 0 ? 'ahead of' : 'behind'} this computer ({driftVerdictText(latest.driftSeconds)}).
          </p>
          {readings.length < 2 ? null : (
            <TimeSeriesChart
              description={`Clock drift over time, ${readings.length} readings from ${readings[0]?.driftSeconds ?? 0} s to ${latest.driftSeconds} s; the table below lists them.`}
              times={readings.map((reading) => reading.measuredAt)}
              series={[{ label: 'drift (s)', values: readings.map((reading) => reading.driftSeconds), texts: readings.map((reading) => `${reading.driftSeconds} s`), stroke: '#1d5bb8' }]}
              testId="@connection/drift-chart"
            />
          )}
          <div className="table-wrap">
            <table className="table" data-testid="@connection/drift-table">
              <caption className="muted small">
                The {recent.length} newest of {readings.length} readings (the desk keeps 500). Positive: this computer&apos;s clock is behind.
              </caption>
              <thead>
                <tr>
                  <th scope="col">Measured</th>
                  <th scope="col">From</th>
                  <th scope="col" className="num">
                    Drift (s)
                  </th>
                </tr>
              </thead>
              <tbody>
                {recent.map((reading, index) => (
                  <tr key={`${reading.measuredAt}-${index}`} data-testid="@connection/drift-row">
                    <td>
                      <DateTime at={reading.measuredAt} />
                    </td>
                    <td>{reading.source === 'selfcheck' ? 'selfcheck' : 'an answer'}</td>
                    <td className="num">{reading.driftSeconds}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </>
  );
}

function driftVerdictText(driftSeconds: number): string {
  const verdict = clockDriftVerdict(driftSeconds);
  switch (verdict) {
    case 'ok':
      return 'fine';
    case 'warn':
      return `close to the ${CLOCK_DRIFT_LIMIT_SECONDS} s limit: check the clock synchronisation`;
    case 'fail':
      return `beyond the ${CLOCK_DRIFT_LIMIT_SECONDS} s limit: requests are refused until the clock is corrected`;
    default: {
      const unreachable: never = verdict;
      return unreachable;
    }
  }
}
