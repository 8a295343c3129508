// Text the engine wrote, whose words are English (an error's message, a sync step, a service's reason): marked
// lang="en" when the window speaks another language, so a screen reader reads it as English; as is in an English window.
import type { ReactNode } from 'react';
import { currentLanguage } from '../i18n';

/** The lang attribute engine text takes in the window's language now: "en" in a German window, none in an English one. */
export function engineTextLang(): 'en' | undefined {
  return currentLanguage() === 'en' ? undefined : 'en';
}

/** Engine text inline: a span lang="en" in a window of another language, the text alone in an English one. */
export function EngineText({ children }: { readonly children: ReactNode }): React.JSX.Element {
  const lang = engineTextLang();
  return lang === undefined ? <>{children}</> : <span lang={lang}>{children}</span>;
}
