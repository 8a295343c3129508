// DeviceKeys: the device keys operators made at other workstations, waiting here for a confirmation (the operator with their key here, or an admin), each confirmed through the operator dialog after comparing its fingerprint out of band.
import { useState } from 'react';
import type { PendingDeviceView, RosterView } from '../../../electron/contract';
import type { ContractError } from '../api';
import { DateTime } from '../components/DateTime';
import { ErrorNotice } from '../components/ErrorNotice';
import { askOperator } from '../stores/operator-prompt';
import { useOperatorsStore } from '../stores/operators';

export function DeviceKeys({ roster }: { readonly roster: RosterView }): React.JSX.Element | null {
  const [error, setError] = useState<ContractError | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  if (roster.pendingDevices.length === 0 && status === null) return null;

  async function confirm(device: PendingDeviceView): Promise<void> {
    const result = await askOperator({
      title: `Confirm ${device.operator}'s key at workstation ${device.workstation}`,
      fingerprint: {
        label: `Key ${device.operator} made at ${device.workstation}`,
        value: device.keyFingerprint,
        compare: `Ask the person at ${device.workstation} to read out the key fingerprint that workstation shows, and confirm only if it is the same.`,
        none: 'No key was proposed.',
      },
      description: `Once confirmed, this key signs for ${device.operator} at ${device.workstation}. An admin's confirmation also enrols ${device.workstation} on the team desk if no admin did yet.`,
      hint: `${device.operator} confirms with their own key here, or an admin does with their own passphrase.`,
      confirmLabel: 'Confirm',
      run: (as) => useOperatorsStore.getState().confirmDevice(device.id, as),
    });
    if (result === null) return;
    setError(result.ok ? null : result.error);
    setStatus(result.ok ? `Confirmed: ${device.operator}'s key at ${device.workstation}.` : null);
  }

  return (
    <section className="card" aria-labelledby="devices-title">
      <h2 id="devices-title">Keys of other workstations</h2>
      <p className="muted small">Each operator has a key per workstation; a key made at another workstation signs only once it is confirmed here.</p>
      {roster.pendingDevices.length === 0 ? null : (
        <ul className="queue" data-testid="@operators/devices">
          {roster.pendingDevices.map((device) => (
            <li key={device.id} className="queue__item" data-testid="@operators/device" data-id={device.id} data-operator={device.operator} data-workstation={device.workstation}>
              <div className="queue__main">
                <p>
                  <strong>{device.operator}</strong> at workstation <strong>{device.workstation}</strong>
                </p>
                <p className="small muted">
                  key <span className="mono">{device.keyFingerprint}</span>, made on <DateTime at={device.at} />
                </p>
              </div>
              <div className="queue__actions">
                <button
                  type="button"
                  className="button button--primary button--small"
                  onClick={() => void confirm(device)}
                  aria-label={`Confirm ${device.operator}'s key at ${device.workstation}`}
                  data-testid="@operators/device-confirm-button"
                >
                  Confirm
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
