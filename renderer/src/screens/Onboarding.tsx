// First start: explore with a sandbox (demo/start), connect a merchant account (import / type credentials, generate a
// key pair), then selfcheck, then founding (the first one or two admins) when the profile is not founded; or join a
// team desk (team/join, no credentials needed), which leads straight to the desk with the joined profile selected.
import { useState } from 'react';
import type { ContractError } from '../api';
import { DemoBanner } from '../components/Banners';
import { ErrorNotice } from '../components/ErrorNotice';
import { useProfilesStore, type OnboardingStep } from '../stores/profiles';
import { useOperatorsStore } from '../stores/operators';
import { useSessionStore } from '../stores/session';
import { reloadEverything } from '../events';
import { Founding } from './Founding';
import { AddProfilePanel } from './profile-forms';
import { SelfcheckPanel } from './SelfcheckPanel';
import { TeamConnectForm } from './TeamConnectForm';

const STEPS: ReadonlyArray<[OnboardingStep, string]> = [
  ['welcome', 'Start'],
  ['credentials', 'Connect'],
  ['selfcheck', 'Check'],
  ['operator', 'Operators'],
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
        <p className="brand">Treasury Desk</p>
        <nav aria-label="Setup progress">
          <ol className="stepper">
            {STEPS.map(([id, label], position) => (
              <li key={id} className={`stepper__step${position < index ? ' stepper__step--done' : ''}`} aria-current={id === shownStep ? 'step' : undefined}>
                {label}
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
      <h1>Welcome to Treasury Desk</h1>
      <p className="lead">
        Balances, deposits, deposit addresses and a withdrawal approval desk for your merchant account, with every
        verified record kept on this workstation so history stays readable offline.
      </p>
      <div className="choices">
        <section className="card choice" aria-labelledby="choice-demo">
          <h2 id="choice-demo">Explore with a sandbox</h2>
          <p>
            Starts a local stand-in for the payment service with a demo merchant, balances and a few hundred deposits and
            withdrawals. Nothing leaves this computer and no real funds are involved.
          </p>
          <ErrorNotice error={error} testId="@onboarding/demo-error" />
          <button type="button" className="button button--primary" disabled={busy} onClick={() => void startDemo()} data-testid="@onboarding/demo-button">
            {busy ? 'Starting the sandbox…' : 'Explore with a sandbox'}
          </button>
        </section>
        <section className="card choice" aria-labelledby="choice-connect">
          <h2 id="choice-connect">Connect your merchant account</h2>
          <p>
            Use the credentials the platform issued to your merchant account: import their file or type them, or first
            generate a key pair here and send the platform its public key.
          </p>
          <button type="button" className="button" onClick={() => useProfilesStore.getState().setOnboarding('credentials')} data-testid="@onboarding/connect-button">
            Connect an account
          </button>
        </section>
        <section className="card choice" aria-labelledby="choice-join">
          <h2 id="choice-join">Join a team desk</h2>
          <p>
            Another workstation already runs the desk on a team database: review and sign its decisions here without the
            merchant credentials. An admin enrols this workstation.
          </p>
          <button type="button" className="button" onClick={() => useProfilesStore.getState().setOnboarding('join')} data-testid="@onboarding/join-button">
            Join a team desk
          </button>
        </section>
      </div>
    </>
  );
}

function Credentials(): React.JSX.Element {
  return (
    <>
      <h1>Connect your merchant account</h1>
      <p className="lead">The four credentials (merchant ID, secret, platform public key, merchant private key) are kept in this workstation&apos;s keychain, never in files or the database.</p>
      <AddProfilePanel onAdded={() => useProfilesStore.getState().setOnboarding('selfcheck')} />
      <div className="actions">
        <button type="button" className="button button--link" onClick={() => useProfilesStore.getState().setOnboarding('welcome')}>
          Back
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
      <h1>Join a team desk</h1>
      <p className="lead">
        The team database holds the desk&apos;s signed audit chain: this workstation pulls and verifies all of it, then
        shows the same approvals queue. Merchant credentials stay on the workstations that have them.
      </p>
      <TeamConnectForm scope="@onboarding" offerInit={false} onConnected={() => void joined()} />
      <div className="actions">
        <button type="button" className="button button--link" onClick={() => useProfilesStore.getState().setOnboarding('welcome')}>
          Back
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
      <h1>Check the connection</h1>
      {active === null ? null : (
        <p className="lead">
          Profile <strong>{active.name}</strong> — merchant <code>{active.merchantId}</code> at <code>{active.baseUrl}</code>
          {active.isDemo ? ' (demo sandbox)' : ''}.
        </p>
      )}
      <SelfcheckPanel />
      <div className="actions">
        <button type="button" className="button button--primary" onClick={() => void next()} data-testid="@onboarding/continue">
          Continue
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
      <h1>Found the desk</h1>
      <p className="lead">
        Operators sign every privileged action (creating addresses, requesting, approving and sending withdrawals, changing
        policies) with their own key, and the audit log records who did what. The first admins found the desk; they invite
        the others.
      </p>
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
