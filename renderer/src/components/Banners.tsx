// The shell's persistent banners: demo profile (always visible while a demo profile is active), offline (why and
// since when; the cached history stays browsable), a service reachable but failing for some resources (which, how, and
// since the last success), long-running sync progress, a profile not founded yet, and sending frozen. The engine's
// status comes as codes and values and is said in the window's language (i18n/sentences.ts); only its English detail
// (a transport's reason, a failure's message) stays English, marked so.
import {
  escapeSingleLine,
  type ConnectionState,
  type OfflineReason,
  type SyncProgress,
  type SyncResource,
  type SyncResourceState,
} from '../../../electron/contract';
import { timeAgo } from '../format';
import { useNow } from '../hooks';
import { t, tRich, type MessageId } from '../i18n';
import { connectionCauseFor, syncProgressFor } from '../i18n/sentences';
import { useNavigationStore } from '../stores/navigation';
import { useOperatorsStore } from '../stores/operators';
import { useSendingStore } from '../stores/sending';
import { useSyncStore } from '../stores/sync';
import { DateTime } from './DateTime';
import { EngineFailure } from './EngineFailure';
import { EngineText, engineTextNode } from './EngineText';

const OFFLINE_REASONS: Readonly<Record<OfflineReason, MessageId>> = {
  network: 'shell.offline.reason.network',
  notWhitelisted: 'shell.offline.reason.notWhitelisted',
  clockDrift: 'shell.offline.reason.clockDrift',
  credentials: 'shell.offline.reason.credentials',
  service: 'shell.offline.reason.service',
};

/** Why the desk is offline, in the window's language; `null` when the desk does not know. */
export function offlineReasonText(reason: OfflineReason | null): string {
  return t(reason === null ? 'shell.offline.reason.unknown' : OFFLINE_REASONS[reason]);
}

/** Why the desk is offline, beyond its reason: the engine's cause in the window's language, or its English when it gave none. */
export function OfflineCause({ connection }: { readonly connection: ConnectionState }): React.ReactNode {
  if (connection.cause !== undefined) return connectionCauseFor(connection.cause, engineTextNode);
  return connection.message === null ? null : <EngineText>{connection.message}</EngineText>;
}

/** Where a sync stands ("deposits: page 4, …"), in the window's language; the engine's English when it gave no phase. */
export function SyncProgressText({ progress }: { readonly progress: SyncProgress }): React.ReactNode {
  return progress.phase === undefined ? <EngineText>{escapeSingleLine(progress.message)}</EngineText> : syncProgressFor(progress.resource, progress.phase);
}

const bold = (chunks: React.ReactNode[]): React.JSX.Element => <strong>{chunks}</strong>;

export function DemoBanner(): React.JSX.Element {
  return (
    <div className="banner banner--demo" role="note" aria-label={t('shell.demo.label')} data-testid="@banner/demo">
      {tRich('shell.demo.text', { b: bold })}
    </div>
  );
}

export function OfflineBanner(): React.JSX.Element | null {
  const connection = useSyncStore((state) => state.connection);
  const now = useNow(15_000);
  if (connection === null || connection.online) return null;
  const reason = offlineReasonText(connection.reason);
  return (
    <div className="banner banner--offline" role="alert" data-testid="@banner/offline" data-reason={connection.reason ?? ''}>
      <p>
        {connection.since === null
          ? tRich('shell.offline.headline', { b: bold, reason })
          : tRich('shell.offline.headlineSince', { b: bold, reason, time: <DateTime at={connection.since} timeOnly />, ago: timeAgo(connection.since, now) })}
      </p>
      {connection.message === null ? null : (
        <p className="banner__detail">
          <OfflineCause connection={connection} />
        </p>
      )}
      <p className="banner__detail">
        {t('shell.offline.cachedStayBrowsable')}
        {connection.lastContactAt === null ? null : <> {t('shell.offline.lastContact', { ago: timeAgo(connection.lastContactAt, now) })}</>}
      </p>
    </div>
  );
}

const RESOURCE_NAMES: Readonly<Record<SyncResource, { readonly name: MessageId; readonly inSentence: MessageId }>> = {
  currencies: { name: 'shell.sync.resource.currencies', inSentence: 'shell.sync.resourceInSentence.currencies' },
  balances: { name: 'shell.sync.resource.balances', inSentence: 'shell.sync.resourceInSentence.balances' },
  deposits: { name: 'shell.sync.resource.deposits', inSentence: 'shell.sync.resourceInSentence.deposits' },
  withdrawals: { name: 'shell.sync.resource.withdrawals', inSentence: 'shell.sync.resourceInSentence.withdrawals' },
};

/** The resources whose last attempt failed after their last success: the service answered, with an error. */
export function failingResources(resources: readonly SyncResourceState[]): SyncResourceState[] {
  return resources.filter((entry) => entry.lastError !== null && entry.lastAttemptAt !== null && (entry.lastSuccessAt === null || entry.lastAttemptAt > entry.lastSuccessAt));
}

/**
 * While the desk is online, the resources the service answered with an error (a 503 from getDeposits is not
 * "offline"): each with what failed, when, and its last success, so the reader knows how fresh its cached part is.
 */
export function ServiceTroubleBanner(): React.JSX.Element | null {
  const resources = useSyncStore((state) => state.status?.resources ?? null);
  const online = useSyncStore((state) => state.connection?.online ?? true);
  const now = useNow(15_000);
  const failing = resources === null || !online ? [] : failingResources(resources);
  if (failing.length === 0) return null;
  return (
    <div className="banner banner--service" role="status" data-testid="@banner/service-trouble">
      <p>{tRich('shell.serviceTrouble.headline', { b: bold, resources: failing.map((entry) => t(RESOURCE_NAMES[entry.resource].inSentence)).join(', ') })}</p>
      <ul className="banner__detail">
        {failing.map((entry) => (
          <li key={entry.resource} data-testid={`@banner/service-trouble-${entry.resource}`}>
            {tRich('shell.serviceTrouble.resource', {
              resource: t(RESOURCE_NAMES[entry.resource].name),
              error: <EngineFailure code={entry.lastErrorCode} message={escapeSingleLine(entry.lastError ?? '')} />,
              failedAt: <DateTime at={entry.lastAttemptAt ?? 0} timeOnly />,
              lastSuccess:
                entry.lastSuccessAt === null
                  ? t('shell.serviceTrouble.neverSynced')
                  : tRich('shell.serviceTrouble.lastSuccess', { time: <DateTime at={entry.lastSuccessAt} timeOnly />, ago: timeAgo(entry.lastSuccessAt, now) }),
            })}
          </li>
        ))}
      </ul>
    </div>
  );
}

export function SyncProgressBar(): React.JSX.Element | null {
  const progress = useSyncStore((state) => state.progress);
  const cancel = useSyncStore((state) => state.cancel);
  if (progress === null) return null;
  const label = t('shell.sync.progressLabel', { resource: t(RESOURCE_NAMES[progress.resource].inSentence) });
  return (
    <div className="progress" data-testid="@banner/progress">
      <label className="progress__label">
        <span>
          {tRich('shell.sync.progress', { detail: <SyncProgressText progress={progress} /> })}
        </span>
        {progress.total === null ? (
          <progress aria-label={label} />
        ) : (
          <progress aria-label={label} max={progress.total} value={progress.done} />
        )}
      </label>
      <button type="button" className="button button--small" data-testid="@banner/progress-cancel" onClick={() => void cancel()}>
        {t('shell.sync.cancel')}
      </button>
    </div>
  );
}

/** Until its first admins found it, nobody can act on the profile: say so everywhere and lead to the founding step. */
export function NotFoundedBanner(): React.JSX.Element | null {
  const notFounded = useOperatorsStore((state) => state.roster?.founded === false);
  const onOperators = useNavigationStore((state) => state.screen === 'operators');
  if (!notFounded || onOperators) return null;
  return (
    <div className="notice notice--warn" role="note" aria-label={t('shell.notFounded.label')} data-testid="@banner/not-founded">
      <p>{tRich('shell.notFounded.text', { b: bold })}</p>
      <p>
        <button type="button" className="button button--small" onClick={() => useNavigationStore.getState().go('operators')} data-testid="@banner/found-button">
          {t('shell.notFounded.found')}
        </button>
      </p>
    </div>
  );
}

/** While sending is frozen (issue 20), every screen says so: requests and approvals go on, nothing is sent. */
export function FrozenBanner(): React.JSX.Element | null {
  const sending = useSendingStore((state) => state.state);
  if (sending === null || sending.frozen === null) return null;
  const { by, since, reason } = sending.frozen;
  return (
    <div className="banner banner--offline" role="alert" data-testid="@banner/frozen">
      <p>{tRich('shell.frozen.headline', { b: bold, by, since: <DateTime at={since} />, reason })}</p>
      <p className="banner__detail">
        {t('shell.frozen.goesOn')}{' '}
        {sending.lift === null ? t('shell.frozen.howToLift') : t('shell.frozen.liftProposed', { proposer: sending.lift.proposer })}
      </p>
    </div>
  );
}
