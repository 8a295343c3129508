// DeviceKeys: the device keys operators made at other workstations, waiting here for a confirmation (the operator with their key here, or an admin), each confirmed through the operator dialog after comparing its fingerprint out of band.
import { useState } from 'react';
import type { PendingDeviceView, RosterView } from '../../../electron/contract';
import type { ContractError } from '../api';
import { DateTime } from '../components/DateTime';
import { ErrorNotice } from '../components/ErrorNotice';
import { t, tRich } from '../i18n';
import { askOperator } from '../stores/operator-prompt';
import { useOperatorsStore } from '../stores/operators';

export function DeviceKeys({ roster }: { readonly roster: RosterView }): React.JSX.Element | null {
  const [error, setError] = useState<ContractError | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  if (roster.pendingDevices.length === 0 && status === null) return null;

  async function confirm(device: PendingDeviceView): Promise<void> {
    const result = await askOperator({
      title: t('account.devices.confirmTitle', { operator: device.operator, workstation: device.workstation }),
      fingerprint: {
        label: t('account.devices.keyLabel', { operator: device.operator, workstation: device.workstation }),
        value: device.keyFingerprint,
        compare: t('account.devices.compare', { workstation: device.workstation }),
        none: t('account.devices.noKey'),
      },
      description: t('account.devices.confirmDescription', { operator: device.operator, workstation: device.workstation }),
      hint: t('account.devices.confirmHint', { operator: device.operator }),
      confirmLabel: t('account.devices.confirm'),
      run: (as) => useOperatorsStore.getState().confirmDevice(device.id, as),
    });
    if (result === null) return;
    setError(result.ok ? null : result.error);
    setStatus(result.ok ? t('account.devices.confirmed', { operator: device.operator, workstation: device.workstation }) : null);
  }

  return (
    <section className="card" aria-labelledby="devices-title">
      <h2 id="devices-title">{t('account.devices.title')}</h2>
      <p className="muted small">{t('account.devices.intro')}</p>
      {roster.pendingDevices.length === 0 ? null : (
        <ul className="queue" data-testid="@operators/devices">
          {roster.pendingDevices.map((device) => (
            <li key={device.id} className="queue__item" data-testid="@operators/device" data-id={device.id} data-operator={device.operator} data-workstation={device.workstation}>
              <div className="queue__main">
                <p>{tRich('account.devices.who', { operator: <strong>{device.operator}</strong>, workstation: <strong>{device.workstation}</strong> })}</p>
                <p className="small muted">
                  {tRich('account.devices.key', { fingerprint: <span className="mono">{device.keyFingerprint}</span>, at: <DateTime at={device.at} /> })}
                </p>
              </div>
              <div className="queue__actions">
                <button
                  type="button"
                  className="button button--primary button--small"
                  onClick={() => void confirm(device)}
                  aria-label={t('account.devices.confirmAria', { operator: device.operator, workstation: device.workstation })}
                  data-testid="@operators/device-confirm-button"
                >
                  {t('account.devices.confirm')}
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
      <ErrorNotice error={error} testId="@operators/devices-error" />
      <p role="status" className="small" data-testid="@operators/devices-status">
        {status}
      </p>
    </section>
  );
}
