// The last line of the window (house rule 14): a screen that throws while drawing is replaced by what happened and
// what to do (reload; export diagnostics if it happens again), and the error goes to main's application log.
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { escapeUnsafeText, LOG_LOCATION } from '../../../electron/contract';
import { call } from '../api';
import { reportError } from '../error-reporting';

interface ErrorBoundaryProps {
  readonly children: ReactNode;
}

interface ErrorBoundaryState {
  readonly failure: string | null;
  readonly exported: string | null;
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
    if (!result.ok) this.setState({ exported: `Diagnostics could not be saved: ${result.error.message}` });
    else if (!result.value.cancelled) this.setState({ exported: `Saved diagnostics to ${result.value.fileName}: send that file to your support contact.` });
  }

  override render(): ReactNode {
    if (this.state.failure === null) return this.props.children;
    return (
      <main className="splash splash--failure" role="alert" data-testid="@app/error-boundary">
        <h1>Something went wrong in this window</h1>
        <p>
          Treasury Desk could not show this screen: <code>{this.state.failure}</code>
        </p>
        <p className="muted">
          Everything the desk had saved is kept. Reload the window to carry on. If this happens again, export diagnostics and send the file to your
          support contact (the details are in {LOG_LOCATION}).
        </p>
        <div className="actions">
          <button type="button" className="button button--primary" onClick={() => window.location.reload()} data-testid="@app/reload">
            Reload
          </button>
          <button type="button" className="button" onClick={() => void this.exportDiagnostics()} data-testid="@app/export-diagnostics">
            Export diagnostics…
          </button>
        </div>
        <p role="status">{this.state.exported}</p>
      </main>
    );
  }
}
