// The shell's notices from the desktop: a refused treasury-desk:// link (what it was, escaped, and why nothing opened)
// and "Version X is ready: restart now / later" with the signed release's notes (plain text, escaped by React).
import { useEffect } from 'react';
import { useDesktopNoticesStore } from '../stores/desktop-notices';

export function RefusedLinkNotice(): React.JSX.Element | null {
  const refused = useDesktopNoticesStore((state) => state.refusedLink);
  if (refused === null) return null;
  return (
    <div className="banner banner--link" role="alert" data-testid="@banner/link-refused" data-problem={refused.problem}>
      <p>
        <strong>Link not opened.</strong> {refused.message}
      </p>
      <p className="banner__detail mono" data-testid="@banner/link-refused-link">
        {refused.link === '' ? '(empty)' : refused.link}
      </p>
      <button type="button" className="button button--small button--ghost" onClick={() => useDesktopNoticesStore.getState().dismissLink()} data-testid="@banner/link-refused-dismiss">
        Dismiss
      </button>
    </div>
  );
}

export function UpdateReadyBanner(): React.JSX.Element | null {
  const update = useDesktopNoticesStore((state) => state.update);
  const deferred = useDesktopNoticesStore((state) => state.updateDeferred);
  const problem = useDesktopNoticesStore((state) => state.restartProblem);
  useEffect(() => void useDesktopNoticesStore.getState().loadUpdate(), []);
  if (update === null || deferred) return null;
  return (
    <div className="banner banner--update" role="status" data-testid="@banner/update-ready">
      <p>
        <strong>Version {update.version} is ready.</strong> Restart Treasury Desk to install it (a withdrawal being sent finishes first).
      </p>
      {update.notes === '' ? null : (
        <details className="banner__detail">
          <summary>What changes</summary>
          <pre className="banner__notes" data-testid="@banner/update-notes">
            {update.notes}
          </pre>
        </details>
      )}
      {problem === null ? null : (
        <p className="banner__detail" data-testid="@banner/update-problem">
          {problem}
        </p>
      )}
      <button type="button" className="button button--small" onClick={() => void useDesktopNoticesStore.getState().restartNow()} data-testid="@banner/update-restart">
        Restart now
      </button>{' '}
      <button type="button" className="button button--small button--ghost" onClick={() => useDesktopNoticesStore.getState().later()} data-testid="@banner/update-later">
        Later
      </button>
    </div>
  );
}
