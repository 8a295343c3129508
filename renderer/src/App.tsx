// Top-level component: loads the session, the profiles and the window's language, routes events to the stores, reports a
// person's input for the idle lock, and shows onboarding (first start), the lock screen (idle lock) or the desk itself, in
// the chosen language (a new language re-renders the whole tree, and the page's lang attribute names it).
import { useEffect } from 'react';
import { RawIntlProvider } from 'react-intl';
import { startActivityReporting } from './activity';
import { ErrorNotice } from './components/ErrorNotice';
import { OperatorDialog } from './components/OperatorDialog';
import { reloadEverything, startEventRouting } from './events';
import { intlFor, t, useLanguageStore } from './i18n';
import { loadLanguage } from './i18n/saved-language';
import { LockScreen } from './screens/LockScreen';
import { Onboarding } from './screens/Onboarding';
import { Shell } from './Shell';
import { useProfilesStore } from './stores/profiles';
import { useSessionStore } from './stores/session';

async function bootstrap(): Promise<void> {
  await Promise.all([useSessionStore.getState().load(), useProfilesStore.getState().load(), loadLanguage()]);
  if (useProfilesStore.getState().profiles.length > 0 && useSessionStore.getState().session?.locked !== true) reloadEverything();
}

export function App(): React.JSX.Element {
  const locale = useLanguageStore((state) => state.locale);
  const language = useLanguageStore((state) => state.language);

  useEffect(() => {
    const stopEvents = startEventRouting();
    const stopActivity = startActivityReporting();
    void bootstrap();
    return () => {
      stopEvents();
      stopActivity();
    };
  }, []);
  useEffect(() => {
    // The words' language: the locale when it is of that language (de-AT), else the language alone (English words on a
    // fr-FR system, whose numbers and dates stay French, are read as English).
    document.documentElement.lang = locale.toLowerCase().split('-')[0] === language ? locale : language;
  }, [locale, language]);
  return (
    <RawIntlProvider value={intlFor(locale)} key={locale}>
      <Desk />
    </RawIntlProvider>
  );
}

function Desk(): React.JSX.Element {
  const sessionLoaded = useSessionStore((state) => state.loaded);
  const sessionError = useSessionStore((state) => state.error);
  const locked = useSessionStore((state) => state.session?.locked === true);
  const profilesLoaded = useProfilesStore((state) => state.loaded);
  const profileCount = useProfilesStore((state) => state.profiles.length);
  const onboarding = useProfilesStore((state) => state.onboarding);

  if (!sessionLoaded || !profilesLoaded) {
    return (
      <main className="splash" aria-busy="true">
        <h1>{t('shell.productName')}</h1>
        <p className="muted">{t('shell.splash.opening')}</p>
        <ErrorNotice error={sessionError} testId="@app/session-error" />
      </main>
    );
  }
  if (locked && profileCount > 0) return <LockScreen />;
  if (profileCount === 0 || onboarding !== 'done') {
    return (
      <>
        <Onboarding />
        <OperatorDialog />
      </>
    );
  }
  return (
    <>
      <Shell />
      <OperatorDialog />
    </>
  );
}
