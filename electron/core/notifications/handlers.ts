// The notifications feature: each operator's notification preferences and the approvals waiting for them
// (notifications/*). Raising notifications is core/notifications/center.ts.
import type { TreasuryHandlers } from '../../contract';
import type { Kernel } from '../kernel/kernel';
import type { AuditRecorder } from '../audit';
import type { ProfileSelection } from '../profiles';
import type { MerchantConnection } from '../connection';
import { preferencesView, setOwnPreferences } from './preferences';
import { approvalsWaitingFor } from './recipients';
import type { Handle } from '../kernel/handle';

export interface NotificationsFeatureDeps {
  readonly context: Kernel & AuditRecorder & ProfileSelection & MerchantConnection;
}

export function notificationsHandlers(
  { context }: NotificationsFeatureDeps,
  handle: Handle,
): Pick<TreasuryHandlers, 'notifications/preferences' | 'notifications/setPreferences' | 'notifications/waiting'> {
  return {
    'notifications/preferences': handle('notifications/preferences', (request) => preferencesView(context, request.operator)),
    'notifications/setPreferences': handle('notifications/setPreferences', (request) => setOwnPreferences(context, request.preferences, request.as)),
    'notifications/waiting': handle('notifications/waiting', (request) => ({ operator: request.operator, approvals: approvalsWaitingFor(context, request.operator) })),
  };
}
