// Each resource's sync freshness (last success, last attempt, last problem), as the dashboard and the connection panel
// show it.
import type { SyncResource, SyncResourceState } from '../../../electron/contract';
import { timeAgo } from '../format';

const RESOURCE_LABELS: Readonly<Record<SyncResource, string>> = {
  balances: 'Balances',
  deposits: 'Deposits',
  withdrawals: 'Withdrawals',
  currencies: 'Currencies and fees',
};

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
          <th scope="col">What</th>
          <th scope="col">Last success</th>
          <th scope="col">Last attempt</th>
          <th scope="col">Last problem</th>
        </tr>
      </thead>
      <tbody>
        {resources.map((resource) => (
          <tr key={resource.resource} data-resource={resource.resource}>
            <th scope="row">{RESOURCE_LABELS[resource.resource] ?? resource.resource}</th>
            <td>{resource.lastSuccessAt === null ? 'never' : timeAgo(resource.lastSuccessAt, now)}</td>
            <td>{resource.lastAttemptAt === null ? 'never' : timeAgo(resource.lastAttemptAt, now)}</td>
            <td className="small">{resource.lastError ?? '—'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
