// Text the engine wrote, whose words are English (an error's message, a sync step, a service's reason): marked
// lang="en" when the window speaks another language, so a screen reader reads it as English; as is in an English window.
import type { ReactNode } from 'react';
import { currentLanguage, type Language } from '../i18n';

/**
 * The lang attribute text written in `language` (the engine's English unless said) takes in the window now: "en" for
 * English in a German window, none when the window speaks that language.
 */
export function engineTextLang(language: Language = 'en'): Language | undefined {
  return currentLanguage() === language ? undefined : language;
}

interface EngineTextProps {
  readonly children: ReactNode;
  /** The text's language when it is not the engine's English (an error the window made itself: api.ts messageLanguage). */
  readonly language?: Language;
}

/** Engine text inline: a span lang="en" in a window of another language, the text alone in an English one. */
export function EngineText({ children, language }: EngineTextProps): React.JSX.Element {
  const lang = engineTextLang(language);
  return lang === undefined ? <>{children}</> : <span lang={lang}>{children}</span>;
}

/** The engine's English inside a sentence of the window's language (a transport's reason), marked as English. */
export function engineTextNode(text: string): React.JSX.Element {
  return <EngineText>{text}</EngineText>;
}
