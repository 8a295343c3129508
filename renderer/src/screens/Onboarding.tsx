// First start: explore with a sandbox (demo/start), connect a merchant account (import / type credentials, generate a
// key pair), then selfcheck, then founding (the first one or two admins) when the profile is not founded; or join a
// team desk (team/join, no credentials needed), which leads straight to the desk with the joined profile selected.
import { useState } from 'react';
import type { ContractError } from '../api';
import { DemoBanner } from '../components/Banners';
import { ErrorNotice } from '../components/ErrorNotice';
import { t, tRich, type MessageId } from '../i18n';
import { useProfilesStore, type OnboardingStep } from '../stores/profiles';
import { useOperatorsStore } from '../stores/operators';
import { useSessionStore } from '../stores/session';
import { reloadEverything } from '../events';
import { Founding } from './Founding';
import { AddProfilePanel } from './profile-forms';
import { SelfcheckPanel } from './SelfcheckPanel';
import { TeamConnectForm } from './TeamConnectForm';

const STEPS: ReadonlyArray<[OnboardingStep, MessageId]> = [
  ['welcome', 'account.onboarding.step.welcome'],
  ['credentials', 'account.onboarding.step.credentials'],
  ['selfcheck', 'account.onboarding.step.selfcheck'],
  ['operator', 'account.onboarding.step.operator'],
];

export function Onboarding(): React.JSX.Element {
  const step = useProfilesStore((state) => state.onboarding);
  const isDemo = useProfilesStore((state) => state.profiles.some((profile) => profile.active && profile.isDemo));
  // Joining a team desk is this workstation's way to connect: the stepper shows it as the Connect step.
  const shownStep = step === 'join' ? 'credentials' : step;
  const index = STEPS.findIndex(([id]) => id === shownStep);
  return (
    <div className="onboarding">
      <header>
        {isDemo ? <DemoBanner /> : null}
        <div className="onboarding__header">
        <p className="brand">{t('account.onboarding.brand')}</p>
        <nav aria-label={t('account.onboarding.progress')}>
          <ol className="stepper">
            {STEPS.map(([id, label], position) => (
              <li key={id} className={`stepper__step${position < index ? ' stepper__step--done' : ''}`} aria-current={id === shownStep ? 'step' : undefined}>
                {t(label)}
              </li>
            ))}
          </ol>
        </nav>
        </div>
      </header>
      <main className="onboarding__main" data-testid={`@onboarding/${step}`}>
        {step === 'welcome' ? <Welcome /> : null}
        {step === 'credentials' ? <Credentials /> : null}
        {step === 'join' ? <JoinTeamDesk /> : null}
        {step === 'selfcheck' ? <Check /> : null}
        {step === 'operator' ? <FirstAdmins /> : null}
      </main>
    </div>
  );
}

function Welcome(): React.JSX.Element {
  const [error, setError] = useState<ContractError | null>(null);
  const [busy, setBusy] = useState(false);
  async function startDemo(): Promise<void> {
    setBusy(true);
    const result = await useProfilesStore.getState().startDemo();
    setBusy(false);
    if (result.ok) {
      setError(null);
      useProfilesStore.getState().setOnboarding('selfcheck');
    } else setError(result.error);
  }
  return (
    <>
      <h1>{t('account.onboarding.welcome.title')}</h1>
      <p className="lead">{t('account.onboarding.welcome.lead')}</p>
      <div className="choices">
        <section className="card choice" aria-labelledby="choice-demo">
          <h2 id="choice-demo">{t('account.onboarding.demo.title')}</h2>
          <p>{t('account.onboarding.demo.text')}</p>
          <ErrorNotice error={error} testId="@onboarding/demo-error" />
          <button type="button" className="button button--primary" disabled={busy} onClick={() => void startDemo()} data-testid="@onboarding/demo-button">
            {busy ? t('account.onboarding.demo.starting') : t('account.onboarding.demo.title')}
          </button>
        </section>
        <section className="card choice" aria-labelledby="choice-connect">
          <h2 id="choice-connect">{t('account.onboarding.connect.title')}</h2>
          <p>{t('account.onboarding.connect.text')}</p>
          <button type="button" className="button" onClick={() => useProfilesStore.getState().setOnboarding('credentials')} data-testid="@onboarding/connect-button">
            {t('account.onboarding.connect.button')}
          </button>
        </section>
        <section className="card choice" aria-labelledby="choice-join">
          <h2 id="choice-join">{t('account.onboarding.join.title')}</h2>
          <p>{t('account.onboarding.join.text')}</p>
          <button type="button" className="button" onClick={() => useProfilesStore.getState().setOnboarding('join')} data-testid="@onboarding/join-button">
            {t('account.onboarding.join.title')}
          </button>
        </section>
      </div>
    </>
  );
}

function Credentials(): React.JSX.Element {
  return (
    <>
      <h1>{t('account.onboarding.connect.title')}</h1>
      <p className="lead">{t('account.onboarding.credentials.lead')}</p>
      <AddProfilePanel onAdded={() => useProfilesStore.getState().setOnboarding('selfcheck')} />
      <div className="actions">
        <button type="button" className="button button--link" onClick={() => useProfilesStore.getState().setOnboarding('welcome')}>
          {t('account.onboarding.back')}
        </button>
      </div>
    </>
  );
}

/** Joins a team desk; the chain's profiles arrive with it, so onboarding ends at the desk (locked when it has operators). */
function JoinTeamDesk(): React.JSX.Element {
  async function joined(): Promise<void> {
    await Promise.all([useProfilesStore.getState().load(), useSessionStore.getState().load()]);
    useProfilesStore.getState().setOnboarding('done');
    reloadEverything();
  }
  return (
    <>
      <h1>{t('account.onboarding.join.title')}</h1>
      <p className="lead">{t('account.onboarding.join.lead')}</p>
      <TeamConnectForm scope="@onboarding" offerInit={false} onConnected={() => void joined()} />
      <div className="actions">
        <button type="button" className="button button--link" onClick={() => useProfilesStore.getState().setOnboarding('welcome')}>
          {t('account.onboarding.back')}
        </button>
      </div>
    </>
  );
}

function Check(): React.JSX.Element {
  const active = useProfilesStore((state) => state.profiles.find((profile) => profile.active) ?? null);
  async function next(): Promise<void> {
    await useOperatorsStore.getState().load();
    const founded = useOperatorsStore.getState().roster?.founded !== false;
    useProfilesStore.getState().setOnboarding(founded ? 'done' : 'operator');
    if (founded) reloadEverything();
  }
  return (
    <>
      <h1>{t('account.onboarding.check.title')}</h1>
      {active === null ? null : (
        <p className="lead">
          {tRich(active.isDemo ? 'account.onboarding.check.profileDemo' : 'account.onboarding.check.profile', {
            name: <strong>{active.name}</strong>,
            merchantId: <code>{active.merchantId}</code>,
            baseUrl: <code>{active.baseUrl}</code>,
          })}
        </p>
      )}
      <SelfcheckPanel />
      <div className="actions">
        <button type="button" className="button button--primary" onClick={() => void next()} data-testid="@onboarding/continue">
          {t('account.onboarding.continue')}
        </button>
      </div>
    </>
  );
}

/** A profile nobody can act on yet: its first one or two admins found it. */
function FirstAdmins(): React.JSX.Element {
  const active = useProfilesStore((state) => state.profiles.find((profile) => profile.active) ?? null);
  return (
    <>
      <h1>{t('account.onboarding.found.title')}</h1>
      <p className="lead">{t('account.onboarding.found.lead')}</p>
      <Founding
        profile={active?.name ?? null}
        onFounded={() => {
          useProfilesStore.getState().setOnboarding('done');
          reloadEverything();
        }}
      />
    </>
  );
}
