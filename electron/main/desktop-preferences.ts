// This workstation's desktop preferences (keep running in the tray, the window's language, the main window's bounds), kept by main in
// `desktop-preferences.json` in the data folder. Invariant: the file is untrusted — whatever it holds is checked on
// read, and a missing, damaged or foreign file means the defaults (never a crash, never an odd value); it is written
// whole or not at all.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { LANGUAGE_CHOICES } from '../contract/desktop';
import { writeFileAtomically } from '../core/files/atomic-write';

export const DESKTOP_PREFERENCES_FILE = 'desktop-preferences.json';

/** Where and how big the main window was; screen coordinates in device-independent pixels. */
const windowBounds = z.strictObject({
  x: z.number().int().min(-100_000).max(100_000),
  y: z.number().int().min(-100_000).max(100_000),
  width: z.number().int().min(200).max(100_000),
  height: z.number().int().min(200).max(100_000),
  maximized: z.boolean(),
});
export type WindowBounds = z.infer<typeof windowBounds>;

const preferencesSchema = z.object({
  keepRunningInTray: z.boolean().catch(false),
  language: z.enum(LANGUAGE_CHOICES).catch('system'),
  window: windowBounds.nullable().catch(null),
});
export type DesktopPreferences = z.infer<typeof preferencesSchema>;

export const DEFAULT_DESKTOP_PREFERENCES: DesktopPreferences = Object.freeze({ keepRunningInTray: false, language: 'system', window: null });

export interface DesktopPreferencesStore {
  read(): DesktopPreferences;
  /** Applies `patch` and writes the file; answers the new preferences. */
  update(patch: Partial<DesktopPreferences>): DesktopPreferences;
}

/** The preferences in `folder` (the data folder). Reads are checked; each field falls back to its default on its own. */
export function desktopPreferencesIn(folder: string): DesktopPreferencesStore {
  const file = join(folder, DESKTOP_PREFERENCES_FILE);
  const read = (): DesktopPreferences => {
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      return { ...DEFAULT_DESKTOP_PREFERENCES };
    }
    const parsed = preferencesSchema.safeParse(raw);
    return parsed.success ? parsed.data : { ...DEFAULT_DESKTOP_PREFERENCES };
  };
  return {
    read,
    update(patch) {
      const next = preferencesSchema.parse({ ...read(), ...patch });
      writeFileAtomically(file, `${JSON.stringify(next, null, 2)}\n`);
      return next;
    },
  };
}
