// Shows a contract error: what happened (the engine's message) and, for a few codes, what to do next.
import type { ContractError } from '../api';

const NEXT_STEP: Partial<Record<ContractError['code'], string>> = {
  locked: 'Unlock the desk with your operator name and passphrase, then try again.',
  notWhitelisted: "Ask the platform to whitelist this workstation's public IP address for your merchant account.",
  clockDrift: "Set this computer's clock to synchronise automatically (NTP); requests are refused beyond ±5 minutes.",
  offline: 'Check the network connection (the message says what could not be reached), then try again; the cached history stays available.',
  noProfile: 'Add or select a merchant profile under Profiles and connection.',
  keychainUnavailable: "Unlock the system keychain (your desktop session's keyring), then try again.",
  wrongPassphrase: 'Check the operator name and passphrase; both are case-sensitive.',
  forbidden: 'Ask an operator whose role allows this action.',
  ambiguous: 'Do not create the withdrawal again: the desk is reconciling it with the service.',
  lockedOut: 'Each further wrong passphrase makes the wait longer. If the passphrase is lost, an admin can give the operator a new key (Operators → Re-key).',
  unverified: 'Nothing was sent or changed. Keep this workstation as it is and tell your security officer: the signed statements do not support this decision.',
  held: 'Nothing was sent: a rule of the policy in force now holds this withdrawal. Do what the message says would release it, then send it again.',
};

interface ErrorNoticeProps {
  readonly error: ContractError | null | undefined;
  readonly testId?: string;
  readonly title?: string;
}

export function ErrorNotice({ error, testId, title }: ErrorNoticeProps): React.JSX.Element | null {
  if (error === null || error === undefined) return null;
  const next = NEXT_STEP[error.code];
  return (
    <div className="notice notice--error" role="alert" data-testid={testId ?? '@error'} data-code={error.code}>
      {title === undefined ? null : <p className="notice__title">{title}</p>}
      <p>{error.message}</p>
      {error.serviceReason !== undefined && !error.message.includes(error.serviceReason) ? (
        <p className="notice__detail">
          The service said: <code>{error.serviceReason}</code>
        </p>
      ) : null}
      {next === undefined ? null : <p className="notice__detail">{next}</p>}
    </div>
  );
}
