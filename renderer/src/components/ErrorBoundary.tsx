// The last line of the window (house rule 14): a screen that throws while drawing is replaced by what happened and
// what to do (reload; export diagnostics if it happens again), and the error goes to main's application log.
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { escapeUnsafeText, LOG_FILE_NAME, LOG_FOLDER_NAME } from '../../../electron/contract';
import { call, messageLanguage, type ContractError } from '../api';
import { reportError } from '../error-reporting';
import { t, tRich } from '../i18n';
import { EngineText } from './EngineText';

interface ErrorBoundaryProps {
  readonly children: ReactNode;
}

interface ErrorBoundaryState {
  readonly failure: string | null;
  /** The last diagnostics export: saved (to the file named), or refused (why). */
  readonly exported: { readonly saved: true; readonly fileName: string } | { readonly saved: false; readonly problem: ContractError } | null;
}

const SUMMARY_MAX_CHARS = 300;

function summary(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  const safe = escapeUnsafeText(text);
  return safe.length > SUMMARY_MAX_CHARS ? `${safe.slice(0, SUMMARY_MAX_CHARS)}…` : safe;
}

export class ErrorBoundary extends Component<ErrorBoundaryProps, ErrorBoundaryState> {
  override state: ErrorBoundaryState = { failure: null, exported: null };

  static getDerivedStateFromError(error: unknown): Partial<ErrorBoundaryState> {
    return { failure: summary(error) };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    reportError('render', error, info.componentStack);
  }

  async exportDiagnostics(): Promise<void> {
    const result = await call('desktop/exportDiagnostics', {});
    if (!result.ok) this.setState({ exported: { saved: false, problem: result.error } });
    else if (!result.value.cancelled) this.setState({ exported: { saved: true, fileName: result.value.fileName } });
  }

  exportedText(): ReactNode {
    const exported = this.state.exported;
    if (exported === null) return null;
    if (exported.saved) return t('shell.failure.diagnosticsSaved', { fileName: exported.fileName });
    return tRich('shell.failure.diagnosticsNotSaved', { message: <EngineText language={messageLanguage(exported.problem)}>{exported.problem.message}</EngineText> });
  }

  override render(): ReactNode {
    if (this.state.failure === null) return this.props.children;
    return (
      <main className="splash splash--failure" role="alert" data-testid="@app/error-boundary">
        <h1>{t('shell.failure.title')}</h1>
        <p>{tRich('shell.failure.couldNotShow', { failure: <code>{this.state.failure}</code> })}</p>
        <p className="muted">{t('shell.failure.whatToDo', { logFile: `${LOG_FOLDER_NAME}/${LOG_FILE_NAME}` })}</p>
        <div className="actions">
          <button type="button" className="button button--primary" onClick={() => window.location.reload()} data-testid="@app/reload">
            {t('shell.failure.reload')}
          </button>
          <button type="button" className="button" onClick={() => void this.exportDiagnostics()} data-testid="@app/export-diagnostics">
            {t('shell.failure.exportDiagnostics')}
          </button>
        </div>
        <p role="status">{this.exportedText()}</p>
      </main>
    );
  }
}
