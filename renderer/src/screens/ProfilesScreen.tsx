// Profiles and connection: the merchant profiles (profiles/list, profiles/select), adding one (import, type, generate
// a key pair), the selfcheck with its version 2 guidance, the merchant account as the service reports it, and the
// connection panel (whether the connection can be trusted).
import { useState } from 'react';
import type { ContractError } from '../api';
import { ErrorNotice } from '../components/ErrorNotice';
import { reloadEverything } from '../events';
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
  async function select(name: string): Promise<void> {
    const result = await useProfilesStore.getState().select(name);
    setError(result.ok ? null : result.error);
    if (result.ok) reloadEverything();
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
                  <td>
                    {profile.active ? null : (
                      <button type="button" className="button button--small" onClick={() => void select(profile.name)}>
                        Use {profile.name}
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
