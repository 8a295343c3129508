// A button that saves a file through a desktop method's dialog (desktop/export…): busy while it runs, then the chosen
// file's name and what was written, or the error with what to do; a cancelled dialog shows nothing.
import type { Result } from '../../../electron/contract';
import type { FileOutcome } from '../../../electron/contract/desktop';
import { useFileAction } from '../file-action';
import { t, tRich } from '../i18n';
import { ErrorNotice } from './ErrorNotice';

export interface ExportButtonProps<T> {
  /** What the group does, for assistive technology ("Export deposits as CSV"). */
  readonly groupLabel: string;
  /** The button's text ("Export CSV…"). */
  readonly label: string;
  readonly action: () => Promise<Result<FileOutcome<T>>>;
  /** What was written, after "… to FILE" ("Exported 12 rows"). */
  readonly written: (value: T) => string;
  /** Test ids: `${testId}-button` and `${testId}-result`. */
  readonly testId: string;
}

export function ExportButton<T>({ groupLabel, label, action, written, testId }: ExportButtonProps<T>): React.JSX.Element {
  const exporting = useFileAction(action);
  return (
    <div className="export" role="group" aria-label={groupLabel}>
      <button type="button" className="button" disabled={exporting.busy} onClick={() => void exporting.run()} data-testid={`${testId}-button`}>
        {exporting.busy ? t('history.export.busy') : label}
      </button>
      <div className="export__result" role="status">
        {exporting.done === null ? null : (
          <span data-testid={`${testId}-result`}>
            {tRich('history.export.writtenTo', { written: written(exporting.done.value), file: <code>{exporting.done.fileName}</code> })}
          </span>
        )}
      </div>
      {exporting.error === null ? null : <ErrorNotice error={exporting.error} />}
    </div>
  );
}
