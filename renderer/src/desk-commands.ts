// The desk's commands in the window: a screen, the search box, sync now, lock. Reached two ways with one outcome: the
// keyboard (this window handles the shortcuts itself, in the app as in the browser harness) and the app menu (main
// sends `desktop/navigate` / `desktop/focusSearch`, and runs sync and lock on the engine itself).
// No double firing in the app: a shortcut handled here is preventDefault'ed, and Electron performs a menu accelerator
// only for a key press the page left unhandled (the menu also leaves its accelerators unregistered off macOS).
import { commandForKey, shortcutFor, type DeskCommand } from '../../electron/contract/shortcuts';
import { useNavigationStore } from './stores/navigation';
import { useSessionStore } from './stores/session';
import { useSyncStore } from './stores/sync';

/** The attribute that marks a screen's search box (the Search command focuses it). */
export const SEARCH_BOX_ATTRIBUTE = 'data-search-box';
/** The screen whose search box Search opens when the current screen has none. */
const SEARCH_SCREEN = 'deposits';

function searchBox(): HTMLInputElement | null {
  return document.querySelector<HTMLInputElement>(`#main [${SEARCH_BOX_ATTRIBUTE}]`);
}

/** Focuses the current screen's search box, or opens the deposits and focuses theirs once it is shown. */
export function focusSearch(): void {
  const here = searchBox();
  if (here !== null) {
    here.focus();
    here.select();
    return;
  }
  useNavigationStore.getState().go(SEARCH_SCREEN);
  // The screen renders on the next frames; give it a moment, then focus what appeared.
  let attempts = 0;
  const retry = (): void => {
    const box = searchBox();
    if (box !== null) box.focus();
    else if ((attempts += 1) < 20) window.requestAnimationFrame(retry);
  };
  window.requestAnimationFrame(retry);
}

export function runDeskCommand(command: DeskCommand): void {
  switch (command.kind) {
    case 'navigate':
      useNavigationStore.getState().go(command.screen);
      return;
    case 'focusSearch':
      focusSearch();
      return;
    case 'syncNow':
      void useSyncStore.getState().run();
      return;
    case 'lock':
      void useSessionStore.getState().lock();
      return;
    default: {
      const unknown: never = command;
      return unknown;
    }
  }
}

function isMacintosh(): boolean {
  return /Mac|iPhone|iPad/.test(navigator.platform);
}

/** A command's shortcut for aria-keyshortcuts ("Control+2", "Meta+Shift+L" on macOS); undefined when it has none. */
export function ariaKeyShortcut(command: DeskCommand): string | undefined {
  return shortcutFor(command)?.accelerator.replace('CmdOrCtrl', isMacintosh() ? 'Meta' : 'Control');
}

/** Handles the desk's shortcuts while the desk is shown (unlocked); returns the function that stops it. */
export function startDeskShortcuts(): () => void {
  const isMac = isMacintosh();
  const onKeyDown = (event: KeyboardEvent): void => {
    if (event.repeat || event.isComposing) return;
    const command = commandForKey(event, isMac);
    if (command === null) return;
    if (useSessionStore.getState().session?.locked === true) return;
    event.preventDefault();
    runDeskCommand(command);
  };
  window.addEventListener('keydown', onKeyDown);
  return () => window.removeEventListener('keydown', onKeyDown);
}
