// The shell's notices from the desktop: a refused treasury-desk:// link (what it was, escaped, and why nothing opened)
// and "Version X is ready: restart now / later" with the signed release's notes (plain text, escaped by React). The link
// parser's reason and a refused restart's reason are English (contract, main): a window in another language says in its
// own words what was wrong with the link and marks the English beneath.
import { useEffect } from 'react';
import type { DeepLinkProblem } from '../../../electron/contract';
import { messageLanguage } from '../api';
import { currentLanguage, t, tRich, type MessageId } from '../i18n';
import { useDesktopNoticesStore } from '../stores/desktop-notices';
import { EngineText } from './EngineText';

const LINK_PROBLEMS: Readonly<Record<DeepLinkProblem, MessageId>> = {
  malformed: 'shell.link.problem.malformed',
  unknownKind: 'shell.link.problem.unknownKind',
  badId: 'shell.link.problem.badId',
};

export function RefusedLinkNotice(): React.JSX.Element | null {
  const refused = useDesktopNoticesStore((state) => state.refusedLink);
  if (refused === null) return null;
  return (
    <div className="banner banner--link" role="alert" data-testid="@banner/link-refused" data-problem={refused.problem}>
      <p>
        <strong>{t('shell.link.notOpened')}</strong> {currentLanguage() === 'en' ? null : <>{t(LINK_PROBLEMS[refused.problem])} </>}
        <EngineText>{refused.message}</EngineText>
      </p>
      <p className="banner__detail mono" data-testid="@banner/link-refused-link">
        {refused.link === '' ? t('shell.link.empty') : refused.link}
      </p>
      <button type="button" className="button button--small button--ghost" onClick={() => useDesktopNoticesStore.getState().dismissLink()} data-testid="@banner/link-refused-dismiss">
        {t('shell.link.dismiss')}
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
        {tRich('shell.update.ready', { version: update.version, b: (chunks) => <strong>{chunks}</strong> })}
      </p>
      {update.notes === '' ? null : (
        <details className="banner__detail">
          <summary>{t('shell.update.whatChanges')}</summary>
          <pre className="banner__notes" data-testid="@banner/update-notes">
            {update.notes}
          </pre>
        </details>
      )}
      {problem === null ? null : (
        <p className="banner__detail" data-testid="@banner/update-problem">
          <EngineText language={messageLanguage(problem)}>{problem.message}</EngineText>
        </p>
      )}
      <button type="button" className="button button--small" onClick={() => void useDesktopNoticesStore.getState().restartNow()} data-testid="@banner/update-restart">
        {t('shell.update.restartNow')}
      </button>{' '}
      <button type="button" className="button button--small button--ghost" onClick={() => useDesktopNoticesStore.getState().later()} data-testid="@banner/update-later">
        {t('shell.update.later')}
      </button>
    </div>
  );
}
