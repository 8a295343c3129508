// The shell's persistent banners: demo profile (always visible while a demo profile is active), offline (why and
// since when; the cached history stays browsable), a service reachable but failing for some resources (which, how, and
// since the last success), long-running sync progress, a profile not founded yet, and sending frozen.
import { escapeSingleLine, type OfflineReason, type SyncResource, type SyncResourceState } from '../../../electron/contract';
import { timeAgo } from '../format';
import { DateTime } from './DateTime';
import { useNow } from '../hooks';
import { useNavigationStore } from '../stores/navigation';
import { useOperatorsStore } from '../stores/operators';
import { useSendingStore } from '../stores/sending';
import { useSyncStore } from '../stores/sync';

export const OFFLINE_REASONS: Readonly<Record<OfflineReason, string>> = {
  network: 'The payment service cannot be reached from this workstation.',
  notWhitelisted:
    "The service answered “Oops”: this workstation's IP address is not on the merchant account's whitelist. Ask the platform to add it.",
  clockDrift: "This computer's clock differs from the service's by more than the ±5 minute window, so every signed request is refused.",
  credentials: 'The service refused the merchant credentials (token, signature or keys).',
  service: 'The service refused requests.',
};

export function DemoBanner(): React.JSX.Element {
  return (
    <div className="banner banner--demo" role="note" aria-label="Demo profile" data-testid="@banner/demo">
      <strong>Demo profile.</strong> You are exploring a local sandbox with made-up merchants, balances and
      transfers. Nothing here moves real funds; add your merchant profile under Profiles and connection to go live.
    </div>
  );
}

export function OfflineBanner(): React.JSX.Element | null {
  const connection = useSyncStore((state) => state.connection);
  const now = useNow(15_000);
  if (connection === null || connection.online) return null;
  const reason = connection.reason === null ? 'The service cannot be reached.' : OFFLINE_REASONS[connection.reason];
  return (
    <div className="banner banner--offline" role="alert" data-testid="@banner/offline" data-reason={connection.reason ?? ''}>
      <p>
        <strong>Offline</strong>
        {connection.since === null ? null : (
          <>
            {' '}
            since <DateTime at={connection.since} timeOnly /> ({timeAgo(connection.since, now)})
          </>
        )}
        . {reason}
      </p>
      {connection.message === null ? null : <p className="banner__detail">{connection.message}</p>}
      <p className="banner__detail">
        Cached balances, deposits and withdrawals stay browsable; the desk reconnects by itself.
        {connection.lastContactAt === null ? null : <> Last contact with the service {timeAgo(connection.lastContactAt, now)}.</>}
      </p>
    </div>
  );
}

const RESOURCE_NAMES: Readonly<Record<SyncResource, string>> = { currencies: 'Currencies', balances: 'Balances', deposits: 'Deposits', withdrawals: 'Withdrawals' };

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
      <p>
        <strong>The service is reachable but failing</strong> for {failing.map((entry) => RESOURCE_NAMES[entry.resource].toLowerCase()).join(', ')}. The other
        records are current; cached ones stay browsable, and the desk tries again at the next sync.
      </p>
      <ul className="banner__detail">
        {failing.map((entry) => (
          <li key={entry.resource} data-testid={`@banner/service-trouble-${entry.resource}`}>
            {RESOURCE_NAMES[entry.resource]}: {escapeSingleLine(entry.lastError ?? '')} (failed at <DateTime at={entry.lastAttemptAt ?? 0} timeOnly />;{' '}
            {entry.lastSuccessAt === null ? (
              'never synced yet'
            ) : (
              <>
                last success <DateTime at={entry.lastSuccessAt} timeOnly />, {timeAgo(entry.lastSuccessAt, now)}
              </>
            )}
            )
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
  const label = `Syncing ${progress.resource}`;
  return (
    <div className="progress" data-testid="@banner/progress">
      <label className="progress__label">
        <span>Syncing {escapeSingleLine(progress.message)}</span>
        {progress.total === null ? (
          <progress aria-label={label} />
        ) : (
          <progress aria-label={label} max={progress.total} value={progress.done} />
        )}
      </label>
      <button type="button" className="button button--small" data-testid="@banner/progress-cancel" onClick={() => void cancel()}>
        Cancel
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
    <div className="notice notice--warn" role="note" aria-label="Desk not founded" data-testid="@banner/not-founded">
      <p>
        <strong>This desk profile is not founded yet.</strong> Nobody can request, approve or send anything until its first one or two
        admins found it, each with their own passphrase.
      </p>
      <p>
        <button type="button" className="button button--small" onClick={() => useNavigationStore.getState().go('operators')} data-testid="@banner/found-button">
          Found the desk
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
      <p>
        <strong>Sending is frozen</strong> by {by} since <DateTime at={since} />: {reason}
      </p>
      <p className="banner__detail">
        Requests and approvals go on; nothing is sent until the freeze is lifted.{' '}
        {sending.lift === null
          ? 'An admin proposes lifting it (Settings, Emergency freeze) and another admin confirms.'
          : `${sending.lift.proposer} proposed lifting it: another admin confirms it on the Operators screen.`}
      </p>
    </div>
  );
}
