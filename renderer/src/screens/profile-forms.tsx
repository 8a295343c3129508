// Profile forms shared by onboarding and the Profiles screen: import a credentials file (the main process reads the
// path), type the four credentials, generate a merchant key pair and copy its public key. Secrets typed here go to
// the engine once and are never shown back.
import { useState, type FormEvent } from 'react';
import type { ProfileSummary } from '../../../electron/contract';
import type { ContractError } from '../api';
import { CopyButton } from '../components/CopyButton';
import { ErrorNotice } from '../components/ErrorNotice';
import { Field, fieldError } from '../components/Field';
import { t, tRich, type MessageId } from '../i18n';
import { useProfilesStore } from '../stores/profiles';

type Tab = 'import' | 'type' | 'generate';

const TABS: ReadonlyArray<[Tab, MessageId]> = [
  ['import', 'account.addProfile.tab.import'],
  ['type', 'account.addProfile.tab.type'],
  ['generate', 'account.addProfile.tab.generate'],
];

export function AddProfilePanel({ onAdded }: { readonly onAdded: (profile: ProfileSummary) => void }): React.JSX.Element {
  const [tab, setTab] = useState<Tab>('import');
  return (
    <div className="tabs">
      <div role="tablist" aria-label={t('account.addProfile.tabs')} className="tabs__list">
        {TABS.map(([id, label]) => (
          <button
            key={id}
            id={`profile-tab-${id}`}
            type="button"
            role="tab"
            aria-selected={tab === id}
            aria-controls={`profile-panel-${id}`}
            tabIndex={tab === id ? 0 : -1}
            className="tabs__tab"
            onClick={() => setTab(id)}
            onKeyDown={(event) => {
              if (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft') return;
              const index = TABS.findIndex(([candidate]) => candidate === tab);
              const next = TABS[(index + (event.key === 'ArrowRight' ? 1 : TABS.length - 1)) % TABS.length];
              if (next !== undefined) {
                setTab(next[0]);
                document.getElementById(`profile-tab-${next[0]}`)?.focus();
              }
            }}
            data-testid={`@profiles/tab-${id}`}
          >
            {t(label)}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`profile-panel-${tab}`} aria-labelledby={`profile-tab-${tab}`} className="tabs__panel">
        {tab === 'import' ? <ImportForm onAdded={onAdded} /> : tab === 'type' ? <TypeForm onAdded={onAdded} /> : <GenerateKeyForm />}
      </div>
    </div>
  );
}

function ImportForm({ onAdded }: { readonly onAdded: (profile: ProfileSummary) => void }): React.JSX.Element {
  const [name, setName] = useState('main');
  const [error, setError] = useState<ContractError | null>(null);
  const [busy, setBusy] = useState(false);
  async function submit(event: FormEvent): Promise<void> {
    event.preventDefault();
    setBusy(true);
    const result = await useProfilesStore.getState().importFile(name.trim());
    setBusy(false);
    if (!result.ok) setError(result.error);
    else {
      setError(null);
      if (!result.value.cancelled) onAdded(result.value.value);
    }
  }
  return (
    <form onSubmit={(event) => void submit(event)} className="stack" aria-label={t('account.addProfile.tab.import')}>
      <p className="muted">{t('account.addProfile.import.intro')}</p>
      <Field label={t('account.addProfile.name')} error={fieldError(error?.fields, 'name')}>
        {(control) => <input {...control} className="input" value={name} onChange={(event) => setName(event.target.value)} required data-testid="@profiles/import-name" />}
      </Field>
      <ErrorNotice error={error} testId="@profiles/import-error" />
      <div>
        <button type="submit" className="button button--primary" disabled={busy} data-testid="@profiles/import-button">
          {busy ? t('account.addProfile.import.busy') : t('account.addProfile.import.choose')}
        </button>
      </div>
    </form>
  );
}

const EMPTY_CREDENTIALS = { baseUrl: '', merchantId: '', secret: '', platformPublicKey: '', merchantPrivateKey: '' };

function TypeForm({ onAdded }: { readonly onAdded: (profile: ProfileSummary) => void }): React.JSX.Element {
  const [name, setName] = useState('main');
  const [credentials, setCredentials] = useState(EMPTY_CREDENTIALS);
  const [error, setError] = useState<ContractError | null>(null);
  const [busy, setBusy] = useState(false);
  const update = (key: keyof typeof EMPTY_CREDENTIALS) => (value: string) => setCredentials({ ...credentials, [key]: value });
  async function submit(event: FormEvent): Promise<void> {
    event.preventDefault();
    setBusy(true);
    const { merchantPrivateKey, ...rest } = credentials;
    const result = await useProfilesStore.getState().add(name.trim(), {
      ...rest,
      baseUrl: credentials.baseUrl.trim(),
      merchantId: credentials.merchantId.trim(),
      ...(merchantPrivateKey.trim() === '' ? {} : { merchantPrivateKey }),
    });
    setBusy(false);
    if (result.ok) {
      setCredentials(EMPTY_CREDENTIALS);
      setError(null);
      onAdded(result.value);
    } else setError(result.error);
  }
  const fields = error?.fields;
  return (
    <form onSubmit={(event) => void submit(event)} className="stack" aria-label={t('account.addProfile.tab.type')}>
      <Field label={t('account.addProfile.name')} error={fieldError(fields, 'name')}>
        {(control) => <input {...control} className="input" value={name} onChange={(event) => setName(event.target.value)} required />}
      </Field>
      <div className="grid-2">
        <Field
          label={t('account.addProfile.type.baseUrl')}
          hint={t('account.addProfile.type.baseUrlHint')}
          error={fieldError(fields, 'credentials.baseUrl')}
          testId="@profiles/base-url"
        >
          {(control) => <input {...control} className="input input--mono" type="url" value={credentials.baseUrl} onChange={(event) => update('baseUrl')(event.target.value)} required />}
        </Field>
        <Field label={t('account.addProfile.type.merchantId')} error={fieldError(fields, 'credentials.merchantId')}>
          {(control) => <input {...control} className="input input--mono" value={credentials.merchantId} onChange={(event) => update('merchantId')(event.target.value)} required />}
        </Field>
      </div>
      <Field label={t('account.addProfile.type.secret')} hint={t('account.addProfile.type.secretHint')} error={fieldError(fields, 'credentials.secret')}>
        {(control) => (
          <input {...control} className="input input--mono" type="password" autoComplete="off" value={credentials.secret} onChange={(event) => update('secret')(event.target.value)} required />
        )}
      </Field>
      <Field label={t('account.addProfile.type.platformKey')} error={fieldError(fields, 'credentials.platformPublicKey')}>
        {(control) => (
          <textarea {...control} className="input input--mono" rows={4} spellCheck={false} value={credentials.platformPublicKey} onChange={(event) => update('platformPublicKey')(event.target.value)} required />
        )}
      </Field>
      <Field
        label={t('account.addProfile.type.privateKey')}
        hint={t('account.addProfile.type.privateKeyHint')}
        error={fieldError(fields, 'credentials.merchantPrivateKey')}
      >
        {(control) => (
          <textarea
            {...control}
            className="input input--mono input--secret"
            rows={4}
            spellCheck={false}
            autoComplete="off"
            value={credentials.merchantPrivateKey}
            onChange={(event) => update('merchantPrivateKey')(event.target.value)}
          />
        )}
      </Field>
      <ErrorNotice error={error} testId="@profiles/add-error" />
      <div>
        <button type="submit" className="button button--primary" disabled={busy} data-testid="@profiles/add-button">
          {busy ? t('account.addProfile.type.saving') : t('account.addProfile.type.save')}
        </button>
      </div>
    </form>
  );
}

function GenerateKeyForm(): React.JSX.Element {
  const generated = useProfilesStore((state) => state.generatedKey);
  const [name, setName] = useState('main');
  const [error, setError] = useState<ContractError | null>(null);
  const [busy, setBusy] = useState(false);
  async function submit(event: FormEvent): Promise<void> {
    event.preventDefault();
    setBusy(true);
    const result = await useProfilesStore.getState().generateKey(name.trim());
    setBusy(false);
    setError(result.ok ? null : result.error);
  }
  return (
    <form onSubmit={(event) => void submit(event)} className="stack" aria-label={t('account.addProfile.tab.generate')}>
      <p className="muted">{t('account.addProfile.generate.intro')}</p>
      <Field label={t('account.addProfile.name')} error={fieldError(error?.fields, 'name')}>
        {(control) => <input {...control} className="input" value={name} onChange={(event) => setName(event.target.value)} required data-testid="@profiles/generate-name" />}
      </Field>
      <ErrorNotice error={error} />
      <div>
        <button type="submit" className="button" disabled={busy} data-testid="@profiles/generate-button">
          {busy ? t('account.addProfile.generate.busy') : t('account.addProfile.generate.button')}
        </button>
      </div>
      {generated === null ? null : (
        <div className="stack" data-testid="@profiles/public-key">
          <Field label={t('account.addProfile.generate.publicKey')} hint={tRich('account.addProfile.generate.fingerprint', { fingerprint: <code>{generated.fingerprint}</code> })}>
            {(control) => <textarea {...control} className="input input--mono" rows={8} readOnly value={generated.publicKeyPem} />}
          </Field>
          <div>
            <CopyButton text={generated.publicKeyPem} label={t('account.addProfile.generate.copy')} testId="@profiles/copy-public-key" />
          </div>
          <p className="muted small">{t('account.addProfile.generate.next')}</p>
        </div>
      )}
    </form>
  );
}
