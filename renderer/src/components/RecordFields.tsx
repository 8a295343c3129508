// Fields of a platform record shown as the service sent them: strings as they are, anything else as JSON. Used for the
// "more fields" a record carries beyond the spec (PROTOCOL §8: kept, not dropped) and for a whole order record. Text
// arrives escaped by the display-safe bridge (api.ts), names included.
import type { MoreFields } from '../../../electron/contract';
import { t } from '../i18n';

function shown(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
}

interface RecordFieldsProps {
  readonly fields: MoreFields;
  /** The disclosure's summary, e.g. "More fields from the service". */
  readonly summary: string;
  readonly testId?: string;
  readonly open?: boolean;
}

/** A disclosure listing every field; nothing at all when there are none. */
export function RecordFields({ fields, summary, testId, open = false }: RecordFieldsProps): React.JSX.Element | null {
  const entries = Object.entries(fields);
  if (entries.length === 0) return null;
  return (
    <details className="record-fields" open={open} data-testid={testId}>
      <summary>
        {summary} ({entries.length})
      </summary>
      <dl className="facts small">
        {entries.map(([name, value]) => (
          <div key={name} className="record-fields__field" data-field={name}>
            <dt className="mono">{name}</dt>
            <dd className="mono break">{value === '' ? <span className="muted">{t('payees.recordFields.empty')}</span> : shown(value)}</dd>
          </div>
        ))}
      </dl>
    </details>
  );
}
