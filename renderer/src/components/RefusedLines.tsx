// A file refused for its lines (batch payouts, payees): the engine's `fields` carry one entry per bad line
// (`line 17` → its problems); this reads them and shows each line with its problem, so the person fixes the file.
import type { ContractError } from '../api';
import { t } from '../i18n';

export interface LineRefusal {
  readonly lines: readonly { readonly line: string; readonly problem: string }[];
}

/** The bad lines of a refused import, or null when the error is not a refusal of lines. */
export function lineRefusalOf(error: ContractError): LineRefusal | null {
  const lines = Object.entries(error.fields ?? {})
    .filter(([key]) => /^line \d+$/.test(key))
    .map(([line, problem]) => ({ line: line.slice('line '.length), problem }));
  return error.code === 'invalidInput' && lines.length > 0 ? { lines } : null;
}

interface RefusedLinesProps {
  readonly refusal: LineRefusal;
  /** How the file's lines are counted, e.g. "line 1 is the first payout after the header". */
  readonly counting: string;
  /** The test id prefix: `${testId}` on the notice, `${testId}-line` on each line. */
  readonly testId: string;
}

export function RefusedLines({ refusal, counting, testId }: RefusedLinesProps): React.JSX.Element {
  return (
    <div className="notice notice--error" data-testid={testId}>
      <p className="notice__title">
        {t('withdrawals.refusedLines.title', { count: refusal.lines.length, counting })}
      </p>
      <table className="table">
        <caption>{t('withdrawals.refusedLines.caption')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('withdrawals.field.line')}</th>
            <th scope="col">{t('withdrawals.refusedLines.problem')}</th>
          </tr>
        </thead>
        <tbody>
          {refusal.lines.map((entry) => (
            <tr key={entry.line} data-testid={`${testId}-line`} data-line={entry.line}>
              <td>{entry.line}</td>
              <td>{entry.problem}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
