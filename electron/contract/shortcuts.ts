// The desk's keyboard shortcuts, one table for both places that use them: the app menu shows each as its item's
// accelerator, and the window handles the key itself (the same in the app and the browser harness). Pure: no DOM,
// no Electron.
import { SCREENS, SCREEN_SHORT_NAMES, type Screen } from './screens';

/** What a shortcut or a menu item asks the desk to do. */
export type DeskCommand =
  | { readonly kind: 'navigate'; readonly screen: Screen }
  | { readonly kind: 'focusSearch' }
  | { readonly kind: 'syncNow' }
  | { readonly kind: 'lock' };

export interface DeskShortcut {
  readonly command: DeskCommand;
  /** The menu item's label. */
  readonly label: string;
  /** Electron accelerator syntax; CmdOrCtrl is Command on macOS, Control elsewhere. */
  readonly accelerator: string;
}

/**
 * Cmd/Ctrl+1…9 open the first nine screens in the side navigation's order; a screen after them (Settings, Connection)
 * has no key of its own (Cmd/Ctrl+0 is the standard reset of the zoom) and is opened from the navigation or the Go menu.
 */
const SCREEN_SHORTCUTS: readonly DeskShortcut[] = SCREENS.slice(0, 9).map((screen, index) => ({
  command: { kind: 'navigate', screen },
  label: SCREEN_SHORT_NAMES[screen],
  accelerator: `CmdOrCtrl+${index + 1}`,
}));

export const DESK_SHORTCUTS: readonly DeskShortcut[] = [
  ...SCREEN_SHORTCUTS,
  { command: { kind: 'focusSearch' }, label: 'Search', accelerator: 'CmdOrCtrl+F' },
  { command: { kind: 'syncNow' }, label: 'Sync now', accelerator: 'CmdOrCtrl+Shift+R' },
  { command: { kind: 'lock' }, label: 'Lock the desk', accelerator: 'CmdOrCtrl+Shift+L' },
];

/** The command's shortcut; undefined for a screen that has none (see SCREEN_SHORTCUTS). */
export function shortcutFor(command: DeskCommand): DeskShortcut | undefined {
  return DESK_SHORTCUTS.find((shortcut) => sameCommand(shortcut.command, command));
}

export function sameCommand(a: DeskCommand, b: DeskCommand): boolean {
  return a.kind === b.kind && (a.kind !== 'navigate' || (b.kind === 'navigate' && a.screen === b.screen));
}

/** A key press as the window sees it (KeyboardEvent's fields; `code` is the physical key, whatever the layout). */
export interface KeyPress {
  readonly code: string;
  readonly ctrlKey: boolean;
  readonly metaKey: boolean;
  readonly shiftKey: boolean;
  readonly altKey: boolean;
}

/** The physical key an accelerator's last part names: "1" → Digit1, "F" → KeyF. */
function keyCode(key: string): string {
  if (/^[0-9]$/.test(key)) return `Digit${key}`;
  if (/^[A-Za-z]$/.test(key)) return `Key${key.toUpperCase()}`;
  return key;
}

/** Whether a key press is `accelerator` (CmdOrCtrl is the Command key on macOS, Control elsewhere). */
export function matchesAccelerator(press: KeyPress, accelerator: string, isMac: boolean): boolean {
  const parts = accelerator.split('+');
  const key = parts.pop() ?? '';
  const wantsCommandKey = parts.includes('CmdOrCtrl');
  const commandKey = isMac ? press.metaKey : press.ctrlKey;
  const otherKey = isMac ? press.ctrlKey : press.metaKey;
  return (
    press.code === keyCode(key) &&
    commandKey === wantsCommandKey &&
    !otherKey &&
    press.shiftKey === parts.includes('Shift') &&
    press.altKey === parts.includes('Alt')
  );
}

/** The desk command a key press asks for, or null. */
export function commandForKey(press: KeyPress, isMac: boolean): DeskCommand | null {
  return DESK_SHORTCUTS.find((shortcut) => matchesAccelerator(press, shortcut.accelerator, isMac))?.command ?? null;
}
