// The desk's shortcut table and key matching (shared by the app menu and the window): every screen and command has
// one unique accelerator; a key press matches by physical key (any keyboard layout) with exactly the modifiers
// asked, Command on macOS and Control elsewhere.
import { describe, expect, it } from 'vitest';
import { commandForKey, DESK_SHORTCUTS, matchesAccelerator, SCREENS, shortcutFor, type KeyPress } from '../../../electron/contract';

function press(code: string, modifiers: Partial<Omit<KeyPress, 'code'>> = {}): KeyPress {
  return { code, ctrlKey: false, metaKey: false, shiftKey: false, altKey: false, ...modifiers };
}

describe('the shortcut table', () => {
  it('has one shortcut per screen of the first nine, search, sync and lock, all different', () => {
    expect(DESK_SHORTCUTS.filter((shortcut) => shortcut.command.kind === 'navigate').map((shortcut) => (shortcut.command as { screen: string }).screen)).toEqual(SCREENS.slice(0, 9));
    expect(shortcutFor({ kind: 'navigate', screen: 'profiles' })).toBeUndefined();
    expect(shortcutFor({ kind: 'navigate', screen: 'settings' })).toBeUndefined();
    expect(shortcutFor({ kind: 'navigate', screen: 'addressBook' })?.accelerator).toBe('CmdOrCtrl+5');
    expect(DESK_SHORTCUTS.map((shortcut) => shortcut.command.kind).filter((kind) => kind !== 'navigate')).toEqual(['focusSearch', 'syncNow', 'lock']);
    expect(new Set(DESK_SHORTCUTS.map((shortcut) => shortcut.accelerator)).size).toBe(DESK_SHORTCUTS.length);
    expect(shortcutFor({ kind: 'navigate', screen: 'reconciliation' })?.accelerator).toBe('CmdOrCtrl+6');
    expect(shortcutFor({ kind: 'navigate', screen: 'audit' })?.accelerator).toBe('CmdOrCtrl+8');
    expect(shortcutFor({ kind: 'lock' })?.accelerator).toBe('CmdOrCtrl+Shift+L');
  });
});

describe('commandForKey', () => {
  it('reads Control+digit elsewhere and Command+digit on macOS as a screen', () => {
    expect(commandForKey(press('Digit2', { ctrlKey: true }), false)).toEqual({ kind: 'navigate', screen: 'deposits' });
    expect(commandForKey(press('Digit2', { metaKey: true }), true)).toEqual({ kind: 'navigate', screen: 'deposits' });
    expect(commandForKey(press('Digit9', { ctrlKey: true }), false)).toEqual({ kind: 'navigate', screen: 'operators' });
  });

  it('swaps nothing: Command off macOS and Control on macOS are not the command key', () => {
    expect(commandForKey(press('Digit2', { metaKey: true }), false)).toBeNull();
    expect(commandForKey(press('Digit2', { ctrlKey: true }), true)).toBeNull();
    expect(commandForKey(press('Digit2', { ctrlKey: true, metaKey: true }), true)).toBeNull();
  });

  it('wants exactly the modifiers written', () => {
    expect(commandForKey(press('KeyF', { ctrlKey: true }), false)).toEqual({ kind: 'focusSearch' });
    expect(commandForKey(press('KeyF', { ctrlKey: true, shiftKey: true }), false)).toBeNull();
    expect(commandForKey(press('KeyL', { ctrlKey: true, shiftKey: true }), false)).toEqual({ kind: 'lock' });
    expect(commandForKey(press('KeyL', { ctrlKey: true }), false)).toBeNull();
    expect(commandForKey(press('KeyR', { metaKey: true, shiftKey: true }), true)).toEqual({ kind: 'syncNow' });
    expect(commandForKey(press('KeyR', { metaKey: true, shiftKey: true, altKey: true }), true)).toBeNull();
    expect(commandForKey(press('Digit1'), false)).toBeNull();
    expect(commandForKey(press('Digit0', { ctrlKey: true }), false)).toBeNull();
  });

  it('matches the physical key, so a layout where digits need Shift (AZERTY) still works', () => {
    // On AZERTY the key left of 2 types "&"; its code is still Digit1.
    expect(matchesAccelerator(press('Digit1', { ctrlKey: true }), 'CmdOrCtrl+1', false)).toBe(true);
    expect(matchesAccelerator(press('KeyQ', { ctrlKey: true }), 'CmdOrCtrl+1', false)).toBe(false);
  });
});
