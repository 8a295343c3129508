// Each resource's sync freshness (last success, last attempt, last problem), as the dashboard and the connection panel
// show it; a problem is said as its kind in the window's language, the engine's English message with it.
import type { SyncResource, SyncResourceState } from '../../../electron/contract';
import { timeAgo } from '../format';
import { EngineFailure } from './EngineFailure';
import { t, type MessageId } from '../i18n';

const RESOURCE_LABELS: Readonly<Record<SyncResource, MessageId>> = {
  balances: 'history.word.balances',
  deposits: 'history.word.deposits',
  withdrawals: 'history.word.withdrawals',
  currencies: 'history.sync.resource.currencies',
};

function resourceLabel(resource: SyncResource): string {
  const id = RESOURCE_LABELS[resource] as MessageId | undefined;
  return id === undefined ? resource : t(id);
}

interface SyncFreshnessTableProps {
  readonly resources: readonly SyncResourceState[];
  readonly now: number;
  readonly testId?: string;
}

export function SyncFreshnessTable({ resources, now, testId }: SyncFreshnessTableProps): React.JSX.Element {
  return (
    <table className="table" data-testid={testId}>
      <thead>
        <tr>
          <th scope="col">{t('history.sync.column.what')}</th>
          <th scope="col">{t('history.sync.column.lastSuccess')}</th>
          <th scope="col">{t('history.sync.column.lastAttempt')}</th>
          <th scope="col">{t('history.sync.column.lastProblem')}</th>
        </tr>
      </thead>
      <tbody>
        {resources.map((resource) => (
          <tr key={resource.resource} data-resource={resource.resource}>
            <th scope="row">{resourceLabel(resource.resource)}</th>
            <td>{resource.lastSuccessAt === null ? t('history.word.never') : timeAgo(resource.lastSuccessAt, now)}</td>
            <td>{resource.lastAttemptAt === null ? t('history.word.never') : timeAgo(resource.lastAttemptAt, now)}</td>
            <td className="small">{resource.lastError === null ? '—' : <EngineFailure code={resource.lastErrorCode} message={resource.lastError} />}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
