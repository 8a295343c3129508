// A fingerprint to compare (a withdrawal intent's, an operator key's, the audit head's): boxed, in its groups of four,
// with what to compare it with. The value carries the test id, so a test can read exactly the fingerprint.
import { t } from '../i18n';

interface FingerprintProps {
  readonly label: string;
  /** null: there is none (a withdrawal requested before signed approvals). */
  readonly value: string | null;
  /** What to compare it with, in one sentence. */
  readonly compare?: string;
  /** What to say when there is none. */
  readonly none?: string;
  readonly testId?: string;
}

export function Fingerprint({ label, value, compare, none = t('history.fingerprint.none'), testId }: FingerprintProps): React.JSX.Element {
  return (
    <div className="notice notice--info">
      <p className="notice__title">{label}</p>
      {value === null ? (
        <p data-testid={testId}>{none}</p>
      ) : (
        <p className="address address-block">
          <strong data-testid={testId}>{value}</strong>
        </p>
      )}
      {compare === undefined || value === null ? null : <p className="notice__detail">{compare}</p>}
    </div>
  );
}
