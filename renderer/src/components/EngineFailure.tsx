// A failure the engine recorded, inline (a failing resource, a failed selfcheck step): its message is English and may
// carry the network's words, so it is never translated. A window in another language leads with its own words for the
// failure's contract code (error-words.ts, the headlines ErrorNotice shows) and keeps the message beneath, marked lang="en";
// an English window, or a failure of no known code, shows the message alone.
import type { ContractErrorCode } from '../../../electron/contract';
import { errorHeadline } from '../error-words';
import { EngineText, engineTextLang } from './EngineText';

interface EngineFailureProps {
  readonly code: ContractErrorCode | null;
  /** The engine's message, already escaped for display. */
  readonly message: string;
}

export function EngineFailure({ code, message }: EngineFailureProps): React.JSX.Element {
  const lang = engineTextLang();
  if (lang === undefined || code === null) return <EngineText>{message}</EngineText>;
  return (
    <>
      {errorHeadline(code)}
      <span className="engine-failure__detail" lang={lang}>
        {message}
      </span>
    </>
  );
}
