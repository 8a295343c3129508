// Routes events to the stores: each engine event is a small notice, the stores re-read through contract methods (a
// deposit made through the sandbox appears without a reload); the app menu's requests run as desk commands.
import { isScreen } from '../../electron/contract/screens';
import { onEvent, onLockedError, type ContractEvent } from './api';
import { runDeskCommand } from './desk-commands';
import { useAddressesStore } from './stores/addresses';
import { useBalancesStore } from './stores/balances';
import { useDepositsStore } from './stores/deposits';
import { useDesktopNoticesStore } from './stores/desktop-notices';
import { useGovernanceStore } from './stores/governance';
import { useLabelsStore } from './stores/labels';
import { useMerchantStore } from './stores/merchant';
import { useNavigationStore } from './stores/navigation';
import { useOperatorsStore } from './stores/operators';
import { useSessionStore } from './stores/session';
import { useSendingStore } from './stores/sending';
import { useRadarStore } from './stores/radar';
import { useSettingsStore } from './stores/settings';
import { useSyncStore } from './stores/sync';
import { useWithdrawalsStore } from './stores/withdrawals';
import { useProfilesStore } from './stores/profiles';
import { useReconciliationStore } from './stores/reconciliation';
import { useStatementStore } from './stores/statement';
import { useTeamStore } from './stores/team';

function route(event: ContractEvent): void {
  switch (event.type) {
    case 'connection/changed':
      useSyncStore.getState().applyConnection(event.connection);
      void useSyncStore.getState().load();
      return;
    case 'sync/progress':
      useSyncStore.getState().applyProgress(event.progress);
      if (event.progress === null) {
        void useSyncStore.getState().load();
        // A finished sync may have brought a new currency list (a currency the service added) and merchant settings.
        void useBalancesStore.getState().loadCurrencies();
        void useMerchantStore.getState().load();
        // A sync checked the orders' statuses: which are stuck may have changed.
        void useWithdrawalsStore.getState().loadStuck();
      }
      return;
    case 'deposits/changed':
      void useDepositsStore.getState().refreshHead(event.newDeposits);
      void useBalancesStore.getState().load();
      void useRadarStore.getState().load();
      return;
    case 'balances/changed':
      void useBalancesStore.getState().load();
      void useSyncStore.getState().load();
      return;
    case 'withdrawals/changed':
      void useWithdrawalsStore.getState().refreshAll(event.id);
      return;
    case 'callbacks/changed':
      useSettingsStore.getState().applyCallbacks(event.listener);
      return;
    case 'operators/changed':
      void useOperatorsStore.getState().load();
      // A freeze, or the lift of one, is a roster change; so are a governance change, a veto, every loosening change,
      // the book and the radar's clearances.
      void useSendingStore.getState().load();
      void useGovernanceStore.getState().load();
      void useRadarStore.getState().load();
      void useSettingsStore.getState().loadPolicies();
      void useLabelsStore.getState().load();
      return;
    case 'labels/changed':
      void useLabelsStore.getState().load();
      return;
    case 'session/changed': {
      const before = useSessionStore.getState().session;
      useSessionStore.getState().apply(event.session);
      if (before !== null && (before.profile !== event.session.profile || (before.locked && !event.session.locked))) reloadEverything();
      // Date filters are days in the reporting zone: another zone means other bounds.
      else if (before !== null && before.reportingTimeZone !== event.session.reportingTimeZone) void useDepositsStore.getState().reload();
      return;
    }
    case 'desktop/navigate':
      if (isScreen(event.screen)) runDeskCommand({ kind: 'navigate', screen: event.screen });
      return;
    case 'desktop/focusSearch':
      runDeskCommand({ kind: 'focusSearch' });
      return;
    case 'team/changed':
      void useTeamStore.getState().load();
      return;
    case 'notification/raised':
      // The desktop shows it (main's notifier, to the operator signed in here); the screens follow the change events.
      return;
    case 'desktop/openItem':
      useNavigationStore.getState().open(event.target);
      return;
    case 'desktop/openLink':
      useDesktopNoticesStore.getState().followLink(event.link);
      return;
    case 'desktop/updateReady':
      useDesktopNoticesStore.getState().showUpdate(event.update);
      return;
    default: {
      const unknown: never = event;
      console.warn('Treasury Desk ignored an unknown engine event', unknown);
    }
  }
}

/** Re-reads every store (after an unlock or a profile switch). */
export function reloadEverything(): void {
  void useLabelsStore.getState().load();
  void useProfilesStore.getState().load();
  void useSyncStore.getState().load();
  void useBalancesStore.getState().load();
  void useBalancesStore.getState().loadCurrencies();
  void useDepositsStore.getState().reload();
  void useAddressesStore.getState().load();
  void useWithdrawalsStore.getState().refreshAll();
  void useOperatorsStore.getState().load();
  void useSendingStore.getState().load();
  void useGovernanceStore.getState().load();
  void useRadarStore.getState().load();
  void useMerchantStore.getState().load();
  useReconciliationStore.getState().reset();
  useStatementStore.getState().reset();
}

/** Starts routing; returns the function that stops it. */
export function startEventRouting(): () => void {
  const stopEvents = onEvent(route);
  const stopLocked = onLockedError(() => useSessionStore.getState().markLocked());
  return () => {
    stopEvents();
    stopLocked();
  };
}
