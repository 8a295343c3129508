// The desk's frame: top bar (profile, demo badge, connection, operator, lock), side navigation, persistent banners
// (demo, offline, not founded, sync progress) and the current screen under its heading.
import { useEffect, useRef } from 'react';
import { DemoBanner, FrozenBanner, NotFoundedBanner, OfflineBanner, ServiceTroubleBanner, SyncProgressBar } from './components/Banners';
import { RefusedLinkNotice, UpdateReadyBanner } from './components/DesktopNotices';
import { ariaKeyShortcut, startDeskShortcuts } from './desk-commands';
import { AddressBook } from './screens/AddressBook';
import { Addresses } from './screens/Addresses';
import { Audit } from './screens/Audit';
import { Dashboard } from './screens/Dashboard';
import { Deposits } from './screens/Deposits';
import { Operators } from './screens/Operators';
import { ProfilesScreen } from './screens/ProfilesScreen';
import { Reconciliation } from './screens/Reconciliation';
import { Settings } from './screens/Settings';
import { Tools } from './screens/Tools';
import { Withdrawals } from './screens/Withdrawals';
import { t, tRich } from './i18n';
import { screenShortName, screenTitle, SCREENS, useNavigationStore, type Screen } from './stores/navigation';
import { useProfilesStore } from './stores/profiles';
import { useSessionStore } from './stores/session';
import { useSyncStore } from './stores/sync';
import { awaitingApprovalCount, useWithdrawalsStore } from './stores/withdrawals';

function ScreenView({ screen }: { readonly screen: Screen }): React.JSX.Element {
  switch (screen) {
    case 'dashboard':
      return <Dashboard />;
    case 'deposits':
      return <Deposits />;
    case 'addresses':
      return <Addresses />;
    case 'withdrawals':
      return <Withdrawals />;
    case 'addressBook':
      return <AddressBook />;
    case 'reconciliation':
      return <Reconciliation />;
    case 'tools':
      return <Tools />;
    case 'audit':
      return <Audit />;
    case 'operators':
      return <Operators />;
    case 'settings':
      return <Settings />;
    case 'profiles':
      return <ProfilesScreen />;
    default: {
      const unknown: never = screen;
      return unknown;
    }
  }
}

export function Shell(): React.JSX.Element {
  const screen = useNavigationStore((state) => state.screen);
  const session = useSessionStore((state) => state.session);
  const active = useProfilesStore((state) => state.profiles.find((profile) => profile.active) ?? null);
  const connection = useSyncStore((state) => state.connection);
  const waiting = useWithdrawalsStore(awaitingApprovalCount);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const firstRender = useRef(true);
  const isDemo = session?.isDemo === true || active?.isDemo === true;

  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    headingRef.current?.focus();
  }, [screen]);

  useEffect(() => {
    const timer = window.setInterval(() => void useSyncStore.getState().load(), 30_000);
    return () => window.clearInterval(timer);
  }, []);

  useEffect(() => startDeskShortcuts(), []);

  return (
    <div className={`shell${isDemo ? ' shell--demo' : ''}`}>
      <a href="#main" className="skip-link">
        {t('shell.skipToContent')}
      </a>
      <header className="topbar">
        {isDemo ? <DemoBanner /> : null}
        <div className="topbar__row">
          <p className="brand">{t('shell.productName')}</p>
          <p className="topbar__profile" data-testid="@shell/profile">
            {active === null ? t('shell.topbar.noProfile') : active.name}
            {isDemo ? <span className="badge badge--demo">{t('shell.topbar.demoBadge')}</span> : null}
            {active === null ? null : <span className="muted small mono"> {active.merchantId}</span>}
          </p>
          <p className="topbar__connection" data-testid="@shell/connection">
            <span className={`dot dot--${connection === null ? 'unknown' : connection.online ? 'online' : 'offline'}`} aria-hidden="true" />
            {connection === null
              ? t('shell.topbar.connection.unknown')
              : connection.online
                ? t('shell.topbar.connection.online')
                : t('shell.topbar.connection.offline')}
          </p>
          <p className="topbar__operator">
            {session?.operator === null || session?.operator === undefined
              ? t('shell.topbar.noOperator')
              : tRich('shell.topbar.operator', { name: session.operator, b: (chunks) => <strong>{chunks}</strong> })}
          </p>
          <button type="button" className="button button--small button--ghost" onClick={() => void useSessionStore.getState().lock()} aria-keyshortcuts={ariaKeyShortcut({ kind: 'lock' })} data-testid="@shell/lock-button">
            {t('shell.topbar.lock')}
          </button>
        </div>
      </header>
      <div className="shell__body">
        <nav className="sidebar" aria-label={t('shell.nav.label')}>
          <ul>
            {SCREENS.map((candidate) => (
              <li key={candidate}>
                <button
                  type="button"
                  className="sidebar__link"
                  aria-current={candidate === screen ? 'page' : undefined}
                  onClick={() => useNavigationStore.getState().go(candidate)}
                  aria-keyshortcuts={ariaKeyShortcut({ kind: 'navigate', screen: candidate })}
                  data-testid={`@nav/${candidate}`}
                >
                  {screenShortName(candidate)}
                  {candidate === 'withdrawals' && waiting > 0 ? (
                    <span className="badge badge--warn sidebar__count" aria-label={t('shell.nav.waitingForApproval', { count: waiting })}>
                      {waiting}
                    </span>
                  ) : null}
                </button>
              </li>
            ))}
          </ul>
        </nav>
        <main id="main" className="content" data-testid={`@screen/${screen}`}>
          <UpdateReadyBanner />
          <RefusedLinkNotice />
          <OfflineBanner />
          <ServiceTroubleBanner />
          <NotFoundedBanner />
          <FrozenBanner />
          <SyncProgressBar />
          <h1 ref={headingRef} tabIndex={-1} className="content__title">
            {screenTitle(screen)}
          </h1>
          <ScreenView screen={screen} />
        </main>
      </div>
    </div>
  );
}
