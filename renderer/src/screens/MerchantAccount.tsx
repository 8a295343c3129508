// The merchant account as the service reports it (merchant/info: merchantInfo's last answer, kept by the desk): the
// platform's name for the merchant and its API version, the withdrawal types the platform allows and whether a
// messenger is bound to the merchant's auditor (financialConfirmation withdrawals are refused without one), with the
// fields the spec does not name under "more fields". Refreshed by every sync and selfcheck.
import { useEffect } from 'react';
import { DateTime } from '../components/DateTime';
import { ErrorNotice } from '../components/ErrorNotice';
import { RecordFields } from '../components/RecordFields';
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
      <h2 id="merchant-title">Merchant account at the service</h2>
      <ErrorNotice error={error} />
      {merchant === null ? (
        loaded ? (
          <p className="muted" data-testid="@merchant/unknown">
            The service has not reported the merchant account yet: run the selfcheck or a sync once the service is reachable.
          </p>
        ) : null
      ) : (
        <>
          <dl className="facts">
            <dt>Merchant</dt>
            <dd data-testid="@merchant/name">{merchant.merchantName === '' ? '—' : merchant.merchantName}</dd>
            <dt>Merchant ID</dt>
            <dd className="mono" data-testid="@merchant/id">
              {merchant.merchantId}
            </dd>
            <dt>API version</dt>
            <dd data-testid="@merchant/api-version">{merchant.apiVersion ?? '—'}</dd>
            <dt>Withdrawal types allowed</dt>
            <dd data-testid="@merchant/withdraw-types">{merchant.withdrawTypes.length === 0 ? 'none' : merchant.withdrawTypes.join(', ')}</dd>
            <dt>Auditor messenger</dt>
            <dd data-testid="@merchant/auditor-messenger">
              {merchant.auditorMessengerBound === null ? 'not reported' : merchant.auditorMessengerBound ? 'bound' : 'not bound'}
            </dd>
            <dt>Reported</dt>
            <dd>
              <DateTime at={merchant.fetchedAt} />
            </dd>
          </dl>
          {merchant.auditorMessengerBound === false ? (
            <p className="notice notice--warn" data-testid="@merchant/messenger-warning">
              Withdrawals with financial confirmation are refused while no messenger is bound to the merchant&apos;s auditor: bind
              one in the platform&apos;s merchant settings, then sync.
            </p>
          ) : null}
          <RecordFields fields={merchant.moreFields} summary="More fields from the service" testId="@merchant/more-fields" />
        </>
      )}
    </section>
  );
}
