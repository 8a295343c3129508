// Shows a contract error, the one way the window shows one: what happened (the engine's message) and, for a few codes,
// what to do next. The engine's message is English; a window in another language says first, in its own words, what
// kind of problem it is and what to do (error-words.ts: the headline, then the next step), and keeps the engine's
// message beneath as the detail, marked lang="en". An English window shows the message itself as the headline.
import { messageLanguage, type ContractError } from '../api';
import { errorHeadline, errorNextStep } from '../error-words';
import { tRich } from '../i18n';
import { engineTextLang } from './EngineText';

interface ErrorNoticeProps {
  readonly error: ContractError | null | undefined;
  readonly testId?: string;
  readonly title?: string;
}

export function ErrorNotice({ error, testId, title }: ErrorNoticeProps): React.JSX.Element | null {
  if (error === null || error === undefined) return null;
  const next = errorNextStep(error.code);
  // A message in a language the window does not speak (the lang it is marked with): the window's own words lead, and
  // the message is the detail.
  const lang = engineTextLang(messageLanguage(error));
  const foreign = lang !== undefined;
  return (
    <div className="notice notice--error" role="alert" data-testid={testId ?? '@error'} data-code={error.code}>
      {title === undefined ? null : <p className="notice__title">{title}</p>}
      {foreign ? <p>{errorHeadline(error.code)}</p> : null}
      {foreign && next !== null ? <p>{next}</p> : null}
      <p className={foreign ? 'notice__detail' : undefined} lang={lang}>
        {error.message}
      </p>
      {error.serviceReason !== undefined && !error.message.includes(error.serviceReason) ? (
        <p className="notice__detail">{tRich('shell.error.serviceSaid', { reason: <code>{error.serviceReason}</code> })}</p>
      ) : null}
      {foreign || next === null ? null : <p className="notice__detail">{next}</p>}
    </div>
  );
}
