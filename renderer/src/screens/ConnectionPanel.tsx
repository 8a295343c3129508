// The connection panel (connection/panel): whether the connection can be trusted, in one place: the service address,
// the merchant and API version, the session token's age and estimated expiry (never the token), the clock drift over
// time (a chart for the eye, the readings in a table), both key fingerprints, the last whitelist refusal and each
// resource's sync freshness. Read again after each selfcheck and whenever the sync state changes.
import { useEffect } from 'react';
import { CLOCK_DRIFT_LIMIT_SECONDS, clockDriftVerdict, type ClockDriftReadingView, type ConnectionPanelView, type TokenLifetimeView } from '../../../electron/contract';
import { DateTime } from '../components/DateTime';
import { engineTextNode } from '../components/EngineText';
import { ErrorNotice } from '../components/ErrorNotice';
import { SyncFreshnessTable } from '../components/SyncFreshnessTable';
import { TimeSeriesChart } from '../components/TimeSeriesChart';
import { formatDuration, timeAgo } from '../format';
import { useNow } from '../hooks';
import { t, tRich } from '../i18n';
import { connectionCauseFor } from '../i18n/sentences';
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
      <h2 id="connection-panel-title">{t('account.connection.title')}</h2>
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
        <dt>{t('account.connection.service')}</dt>
        <dd className="mono" data-testid="@connection/base-url">
          {panel.baseUrl}
        </dd>
        <dt>{t('account.connection.merchant')}</dt>
        <dd data-testid="@connection/merchant">
          {panel.merchantName === null || panel.merchantName === '' ? t('account.connection.notReportedYet') : panel.merchantName} <span className="mono muted">{panel.merchantId}</span>
        </dd>
        <dt>{t('account.connection.apiVersion')}</dt>
        <dd data-testid="@connection/api-version">{panel.apiVersion ?? t('account.connection.notReportedYet')}</dd>
        <dt>{t('account.connection.connection')}</dt>
        <dd data-testid="@connection/state">
          {panel.connection.online
            ? t('account.connection.online')
            : tRich('account.connection.offline', {
                reason:
                  panel.connection.cause !== undefined
                    ? connectionCauseFor(panel.connection.cause, engineTextNode)
                    : (panel.connection.message ?? panel.connection.reason ?? t('account.connection.unknownReason')),
              })}
          {panel.connection.lastContactAt === null ? null : <span className="muted small"> {t('account.connection.lastAnswer', { ago: timeAgo(panel.connection.lastContactAt, now) })}</span>}
        </dd>
        <dt>{t('account.connection.token')}</dt>
        <dd data-testid="@connection/token">
          <TokenFacts token={panel.token} now={now} />
        </dd>
        <dt>{t('account.connection.platformKey')}</dt>
        <dd className="mono small" data-testid="@connection/platform-fingerprint">
          {panel.platformKeyFingerprint ?? t('account.connection.fingerprintUnreadable')}
        </dd>
        <dt>{t('account.connection.merchantKey')}</dt>
        <dd className="mono small" data-testid="@connection/merchant-fingerprint">
          {panel.merchantKeyFingerprint ?? t('account.connection.fingerprintUnreadable')}
        </dd>
        <dt>{t('account.connection.lastRefusal')}</dt>
        <dd data-testid="@connection/last-refusal">
          {refusal === null
            ? t('account.connection.never')
            : tRich('account.connection.refusal', { at: <DateTime at={refusal.refusedAt} />, ago: timeAgo(refusal.refusedAt, now), endpoint: refusal.endpoint })}
        </dd>
      </dl>
      <p className="muted small">{t('account.connection.fingerprintsNote')}</p>
      <ClockDriftHistory readings={panel.clockDrift} />
      <h3>{t('account.connection.syncFreshness')}</h3>
      <SyncFreshnessTable resources={panel.sync} now={now} testId="@connection/sync" />
    </>
  );
}

function TokenFacts({ token, now }: { readonly token: TokenLifetimeView | null; readonly now: number }): React.JSX.Element {
  if (token === null) return <>{t('account.connection.tokenNone')}</>;
  const ageSeconds = Math.max(0, Math.round((now - token.issuedAt) / 1000));
  const leftSeconds = Math.round((token.expiresAt - now) / 1000);
  return (
    <>
      {tRich('account.connection.tokenLife', {
        age: ageSeconds < 60 ? t('account.connection.tokenAgeUnderMinute') : formatDuration(ageSeconds),
        expiry: leftSeconds > 0 ? t('account.connection.tokenExpiresIn', { duration: formatDuration(leftSeconds) }) : t('account.connection.tokenExpiresNow'),
        at: <DateTime at={token.expiresAt} />,
      })}
    </>
  );
}

function ClockDriftHistory({ readings }: { readonly readings: readonly ClockDriftReadingView[] }): React.JSX.Element {
  const latest = readings.at(-1);
  const recent = readings.slice(-RECENT_READINGS).reverse();
  return (
    <>
      <h3>{t('account.connection.drift.title')}</h3>
      {latest === undefined ? (
        <p className="muted" data-testid="@connection/drift-none">
          {t('account.connection.drift.none')}
        </p>
      ) : (
        <>
          <p data-testid="@connection/drift-latest">
            {t('account.connection.drift.latest', {
              seconds: Math.abs(latest.driftSeconds),
              side: latest.driftSeconds >= 0 ? 'ahead' : 'behind',
              verdict: driftVerdictText(latest.driftSeconds),
            })}
          </p>
          {readings.length < 2 ? null : (
            <TimeSeriesChart
              description={t('account.connection.drift.chart', { count: readings.length, first: readings[0]?.driftSeconds ?? 0, last: latest.driftSeconds })}
              times={readings.map((reading) => reading.measuredAt)}
              series={[{ label: t('account.connection.drift.series'), values: readings.map((reading) => reading.driftSeconds), texts: readings.map((reading) => `${reading.driftSeconds} s`), stroke: '#1d5bb8' }]}
              testId="@connection/drift-chart"
            />
          )}
          <div className="table-wrap">
            <table className="table" data-testid="@connection/drift-table">
              <caption className="muted small">{t('account.connection.drift.caption', { shown: recent.length, count: readings.length })}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('account.connection.drift.measured')}</th>
                  <th scope="col">{t('account.connection.drift.from')}</th>
                  <th scope="col" className="num">
                    {t('account.connection.drift.seconds')}
                  </th>
                </tr>
              </thead>
              <tbody>
                {recent.map((reading, index) => (
                  <tr key={`${reading.measuredAt}-${index}`} data-testid="@connection/drift-row">
                    <td>
                      <DateTime at={reading.measuredAt} />
                    </td>
                    <td>{reading.source === 'selfcheck' ? t('account.connection.drift.fromSelfcheck') : t('account.connection.drift.fromAnswer')}</td>
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
      return t('account.connection.drift.fine');
    case 'warn':
      return t('account.connection.drift.warn', { limit: CLOCK_DRIFT_LIMIT_SECONDS });
    case 'fail':
      return t('account.connection.drift.fail', { limit: CLOCK_DRIFT_LIMIT_SECONDS });
    default: {
      const unreachable: never = verdict;
      return unreachable;
    }
  }
}
