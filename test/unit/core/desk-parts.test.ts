// The parts the engine composes, each built by its own module: the kernel's event stream and the profiles module's
// choice of the profile to act on (engine.ts deskParts passes them together).
import { afterEach, describe, expect, it } from 'vitest';
import { createKernel } from '../../../electron/core/kernel/kernel';
import { ProfileChoice, createProfile, setSetting, SETTING_KEYS } from '../../../electron/core/profiles';
import { closeDatabase, openDatabase, type StoreDatabase } from '../../../electron/core/store/database';
import type { ContractEvent } from '../../../electron/contract';

const databases: StoreDatabase[] = [];
function freshDatabase(): StoreDatabase {
  const db = openDatabase(':memory:');
  databases.push(db);
  return db;
}
afterEach(() => {
  for (const db of databases.splice(0)) closeDatabase(db);
});

describe('the kernel', () => {
  it('hands every event to every listener, a failing listener notwithstanding, until it unsubscribes', () => {
    const kernel = createKernel(freshDatabase(), () => 42);
    const seen: string[] = [];
    kernel.onEvent(() => {
      throw new Error('a face broke');
    });
    const stop = kernel.onEvent((event) => seen.push(event.type));
    const event: ContractEvent = { type: 'balances/changed' };
    kernel.emit(event);
    stop();
    kernel.emit(event);
    expect(seen).toEqual(['balances/changed']);
    expect(kernel.now()).toBe(42);
  });
});

describe('ProfileChoice', () => {
  it('acts on the profile chosen in this run, else the active-profile setting, else the only profile', () => {
    const db = freshDatabase();
    const choice = new ProfileChoice(db);
    expect(choice.activeProfileName()).toBeUndefined();
    expect(() => choice.activeProfile()).toThrow(/no merchant profile is set up/);
    createProfile(db, { name: 'shop', baseUrl: 'https://pay.example', merchantId: 'M1' }, 1);
    expect(choice.activeProfile().name).toBe('shop');
    createProfile(db, { name: 'outlet', baseUrl: 'https://pay.example', merchantId: 'M2' }, 1);
    expect(choice.activeProfileName()).toBeUndefined();
    setSetting(db, SETTING_KEYS.activeProfile, 'outlet', 2);
    expect(choice.activeProfileName()).toBe('outlet');
    choice.choose('shop');
    expect(choice.activeProfile().name).toBe('shop');
    choice.choose('gone');
    expect(() => choice.activeProfile()).toThrow(/no profile named gone/);
  });
});
