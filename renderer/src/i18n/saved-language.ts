// The language choice main keeps for this workstation (desktop/preferences): read at start, saved when Settings changes
// it. Apart from i18n/index.ts, which api.ts needs for its own words, so the two do not import each other.
import type { LanguageChoice } from '../../../electron/contract/desktop';
import { call, type Result } from '../api';
import { useLanguageStore } from './index';

/** Reads this workstation's choice from main; the window speaks the system's language until it answers. */
export async function loadLanguage(): Promise<void> {
  const result = await call('desktop/preferences', {});
  if (result.ok) useLanguageStore.getState().apply(result.value.language);
}

/** Speaks `choice` at once (the tree re-renders) and asks main to keep it; a refusal puts the old one back. */
export async function chooseLanguage(choice: LanguageChoice): Promise<Result<unknown>> {
  const store = useLanguageStore.getState();
  const before = store.choice;
  store.apply(choice);
  const result = await call('desktop/setPreferences', { language: choice });
  useLanguageStore.getState().apply(result.ok ? result.value.language : before);
  return result;
}
