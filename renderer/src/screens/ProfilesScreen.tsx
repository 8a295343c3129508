// Profiles and connection: the merchant profiles (profiles/list, profiles/select), adding one (import, type, generate
// a key pair), the selfcheck with its version 2 guidance, the merchant account as the service reports it, and the
// connection panel (whether the connection can be trusted).
import { useState } from 'react';
import type { ProfileSummary } from '../../../electron/contract';
import type { ContractError } from '../api';
import { ErrorNotice } from '../components/ErrorNotice';
import { reloadEverything } from '../events';
import { askOperator } from '../stores/operator-prompt';
import { useProfilesStore } from '../stores/profiles';
import { ConnectionPanel } from './ConnectionPanel';
import { MerchantAccount } from './MerchantAccount';
import { AddProfilePanel } from './profile-forms';
import { SelfcheckPanel } from './SelfcheckPanel';

const SOURCE_LABELS = { keychain: 'OS keychain', file: 'credentials file (less safe)', missing: 'missing — re-import' } as const;

export function ProfilesScreen(): React.JSX.Element {
  const profiles = useProfilesStore((state) => state.profiles);
  const [error, setError] = useState<ContractError | null>(null);
  const [adding, setAdding] = useState(false);
  /** The profile whose removal waits for a second click (a profile nobody founded has no admin to sign it). */
  const [confirming, setConfirming] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  async function select(name: string): Promise<void> {
    const result = await useProfilesStore.getState().select(name);
    setError(result.ok ? null : result.error);
    if (result.ok) reloadEverything();
  }
  async function remove(profile: ProfileSummary): Promise<void> {
    setConfirming(null);
    const what = `Removes ${profile.name}'s four credentials from the OS keychain and its operators from this desk; its history stays for the audit log. Importing its credentials again brings it back, to be founded anew.`;
    const result = profile.founded
      ? await askOperator({
          title: `Remove profile ${profile.name}`,
          description: what,
          hint: `One of ${profile.name}'s admins signs the removal (on a team desk, two admins propose and confirm it first).`,
          danger: true,
          confirmLabel: 'Remove profile',
          run: (as) => useProfilesStore.getState().remove(profile.name, as),
        })
      : await useProfilesStore.getState().remove(profile.name);
    if (result === null) return;
    setError(result.ok ? null : result.error);
    if (result.ok) {
      setNotice(`Profile ${profile.name} removed.`);
      reloadEverything();
    }
  }
  return (
    <>
      <section className="card" aria-labelledby="profiles-title">
        <div className="card__head">
          <h2 id="profiles-title">Merchant profiles</h2>
          <button type="button" className="button" onClick={() => setAdding(!adding)} aria-expanded={adding} data-testid="@profiles/add-toggle">
            {adding ? 'Close' : 'Add a profile'}
          </button>
        </div>
        <ErrorNotice error={error} />
        {notice === null ? null : (
          <p role="status" data-testid="@profiles/notice">
            {notice}
          </p>
        )}
        <div className="table-wrap">
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Profile</th>
                <th scope="col">Merchant ID</th>
                <th scope="col">Service</th>
                <th scope="col">Credentials</th>
                <th scope="col">Key fingerprints</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {profiles.map((profile) => (
                <tr key={profile.name} data-testid="@profiles/row" aria-current={profile.active ? 'true' : undefined}>
                  <td>
                    <strong>{profile.name}</strong> {profile.active ? <span className="badge badge--info">active</span> : null}{' '}
                    {profile.isDemo ? <span className="badge badge--demo">demo</span> : null}
                  </td>
                  <td>
                    <code>{profile.merchantId}</code>
                  </td>
                  <td>
                    <code>{profile.baseUrl}</code>
                  </td>
                  <td>{SOURCE_LABELS[profile.credentialSource]}</td>
                  <td className="small fingerprints">
                    <div>
                      platform: <code>{profile.platformKeyFingerprint ?? '—'}</code>
                    </div>
                    <div>
                      merchant: <code>{profile.merchantKeyFingerprint ?? '—'}</code>
                    </div>
                  </td>
                  <td className="actions">
                    {profile.active ? null : (
                      <button type="button" className="button button--small" onClick={() => void select(profile.name)}>
                        Use {profile.name}
                      </button>
                    )}
                    {confirming === profile.name ? (
                      <>
                        <button type="button" className="button button--small button--danger" onClick={() => void remove(profile)} data-testid="@profiles/remove-confirm">
                          Remove {profile.name} for good
                        </button>
                        <button type="button" className="button button--small" onClick={() => setConfirming(null)} data-testid="@profiles/remove-keep">
                          Keep it
                        </button>
                      </>
                    ) : (
                      <button
                        type="button"
                        className="button button--small"
                        onClick={() => (profile.founded ? void remove(profile) : setConfirming(profile.name))}
                        data-testid="@profiles/remove-button"
                        aria-label={`Remove profile ${profile.name}`}
                      >
                        Remove…
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
      {adding ? (
        <section className="card" aria-labelledby="add-profile-title">
          <h2 id="add-profile-title">Add a profile</h2>
          <AddProfilePanel
            onAdded={() => {
              setAdding(false);
              reloadEverything();
            }}
          />
        </section>
      ) : null}
      {profiles.length === 0 ? null : <MerchantAccount />}
      {profiles.length === 0 ? null : <ConnectionPanel />}
      <SelfcheckPanel />
    </>
  );
}
