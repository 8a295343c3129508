// Profiles and connection: the merchant profiles (profiles/list, profiles/select), adding one (import, type, generate
// a key pair), the selfcheck with its version 2 guidance, the merchant account as the service reports it, and the
// connection panel (whether the connection can be trusted).
import { useState } from 'react';
import type { ProfileSummary } from '../../../electron/contract';
import type { ContractError } from '../api';
import { ErrorNotice } from '../components/ErrorNotice';
import { reloadEverything } from '../events';
import { t, tRich, type MessageId } from '../i18n';
import { askOperator } from '../stores/operator-prompt';
import { useProfilesStore } from '../stores/profiles';
import { ConnectionPanel } from './ConnectionPanel';
import { MerchantAccount } from './MerchantAccount';
import { AddProfilePanel } from './profile-forms';
import { SelfcheckPanel } from './SelfcheckPanel';

const SOURCE_LABELS: Readonly<Record<ProfileSummary['credentialSource'], MessageId>> = {
  keychain: 'account.profiles.source.keychain',
  file: 'account.profiles.source.file',
  missing: 'account.profiles.source.missing',
};

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
    const what = t('account.profiles.removeDescription', { name: profile.name });
    const result = profile.founded
      ? await askOperator({
          title: t('account.profiles.removeTitle', { name: profile.name }),
          description: what,
          hint: t('account.profiles.removeHint', { name: profile.name }),
          danger: true,
          confirmLabel: t('account.profiles.removeConfirm'),
          run: (as) => useProfilesStore.getState().remove(profile.name, as),
        })
      : await useProfilesStore.getState().remove(profile.name);
    if (result === null) return;
    setError(result.ok ? null : result.error);
    if (result.ok) {
      setNotice(t('account.profiles.removed', { name: profile.name }));
      reloadEverything();
    }
  }
  return (
    <>
      <section className="card" aria-labelledby="profiles-title">
        <div className="card__head">
          <h2 id="profiles-title">{t('account.profiles.title')}</h2>
          <button type="button" className="button" onClick={() => setAdding(!adding)} aria-expanded={adding} data-testid="@profiles/add-toggle">
            {adding ? t('account.profiles.close') : t('account.profiles.add')}
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
                <th scope="col">{t('account.profiles.profile')}</th>
                <th scope="col">{t('account.profiles.merchantId')}</th>
                <th scope="col">{t('account.profiles.service')}</th>
                <th scope="col">{t('account.profiles.credentials')}</th>
                <th scope="col">{t('account.profiles.fingerprints')}</th>
                <th scope="col">
                  <span className="visually-hidden">{t('account.profiles.actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {profiles.map((profile) => (
                <tr key={profile.name} data-testid="@profiles/row" aria-current={profile.active ? 'true' : undefined}>
                  <td>
                    <strong>{profile.name}</strong> {profile.active ? <span className="badge badge--info">{t('account.profiles.active')}</span> : null}{' '}
                    {profile.isDemo ? <span className="badge badge--demo">{t('account.profiles.demo')}</span> : null}
                  </td>
                  <td>
                    <code>{profile.merchantId}</code>
                  </td>
                  <td>
                    <code>{profile.baseUrl}</code>
                  </td>
                  <td>{t(SOURCE_LABELS[profile.credentialSource])}</td>
                  <td className="small fingerprints">
                    <div>{tRich('account.profiles.platformFingerprint', { fingerprint: <code>{profile.platformKeyFingerprint ?? '—'}</code> })}</div>
                    <div>{tRich('account.profiles.merchantFingerprint', { fingerprint: <code>{profile.merchantKeyFingerprint ?? '—'}</code> })}</div>
                  </td>
                  <td className="actions">
                    {profile.active ? null : (
                      <button type="button" className="button button--small" onClick={() => void select(profile.name)}>
                        {t('account.profiles.use', { name: profile.name })}
                      </button>
                    )}
                    {confirming === profile.name ? (
                      <>
                        <button type="button" className="button button--small button--danger" onClick={() => void remove(profile)} data-testid="@profiles/remove-confirm">
                          {t('account.profiles.removeForGood', { name: profile.name })}
                        </button>
                        <button type="button" className="button button--small" onClick={() => setConfirming(null)} data-testid="@profiles/remove-keep">
                          {t('account.profiles.keep')}
                        </button>
                      </>
                    ) : (
                      <button
                        type="button"
                        className="button button--small"
                        onClick={() => (profile.founded ? void remove(profile) : setConfirming(profile.name))}
                        data-testid="@profiles/remove-button"
                        aria-label={t('account.profiles.removeTitle', { name: profile.name })}
                      >
                        {t('account.profiles.remove')}
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
          <h2 id="add-profile-title">{t('account.profiles.add')}</h2>
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
