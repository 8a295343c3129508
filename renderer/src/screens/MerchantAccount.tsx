// The merchant account as the service reports it (merchant/info: merchantInfo's last answer, kept by the desk): the
// platform's name for the merchant and its API version, the withdrawal types the platform allows and whether a
// messenger is bound to the merchant's auditor (financialConfirmation withdrawals are refused without one), with the
// fields the spec does not name under "more fields". Refreshed by every sync and selfcheck.
import { useEffect } from 'react';
import { DateTime } from '../components/DateTime';
import { ErrorNotice } from '../components/ErrorNotice';
import { RecordFields } from '../components/RecordFields';
import { t } from '../i18n';
import { useMerchantStore } from '../stores/merchant';
import { useProfilesStore } from '../stores/profiles';

export function MerchantAccount(): React.JSX.Element {
  const merchant = useMerchantStore((state) => state.merchant);
  const loaded = useMerchantStore((state) => state.loaded);
  const error = useMerchantStore((state) => state.error);
  // A selfcheck asks merchantInfo too: read the account again after each one.
  const selfcheckAt = useProfilesStore((state) => state.selfcheck.at);
  useEffect(() => {
    void useMerchantStore.getState().load();
  }, [selfcheckAt]);
  return (
    <section className="card" aria-labelledby="merchant-title" data-testid="@merchant">
      <h2 id="merchant-title">{t('account.merchant.title')}</h2>
      <ErrorNotice error={error} />
      {merchant === null ? (
        loaded ? (
          <p className="muted" data-testid="@merchant/unknown">
            {t('account.merchant.unknown')}
          </p>
        ) : null
      ) : (
        <>
          <dl className="facts">
            <dt>{t('account.merchant.merchant')}</dt>
            <dd data-testid="@merchant/name">{merchant.merchantName === '' ? '—' : merchant.merchantName}</dd>
            <dt>{t('account.merchant.id')}</dt>
            <dd className="mono" data-testid="@merchant/id">
              {merchant.merchantId}
            </dd>
            <dt>{t('account.merchant.apiVersion')}</dt>
            <dd data-testid="@merchant/api-version">{merchant.apiVersion ?? '—'}</dd>
            <dt>{t('account.merchant.withdrawTypes')}</dt>
            <dd data-testid="@merchant/withdraw-types">{merchant.withdrawTypes.length === 0 ? t('account.merchant.none') : merchant.withdrawTypes.join(', ')}</dd>
            <dt>{t('account.merchant.auditorMessenger')}</dt>
            <dd data-testid="@merchant/auditor-messenger">
              {merchant.auditorMessengerBound === null
                ? t('account.merchant.messengerNotReported')
                : merchant.auditorMessengerBound
                  ? t('account.merchant.messengerBound')
                  : t('account.merchant.messengerNotBound')}
            </dd>
            <dt>{t('account.merchant.reported')}</dt>
            <dd>
              <DateTime at={merchant.fetchedAt} />
            </dd>
          </dl>
          {merchant.auditorMessengerBound === false ? (
            <p className="notice notice--warn" data-testid="@merchant/messenger-warning">
              {t('account.merchant.messengerWarning')}
            </p>
          ) : null}
          <RecordFields fields={merchant.moreFields} summary={t('account.merchant.moreFields')} testId="@merchant/more-fields" />
        </>
      )}
    </section>
  );
}
