// Test support: a desk secret store held in memory (a file-kind store with no file), for tests that need a DeskIdentity and an anchor but no keychain.
import type { DeskSecretStore } from '../../electron/core/secrets/desk-secret-store';

export function memorySecrets(): DeskSecretStore {
  const entries = new Map<string, string>();
  return {
    kind: 'file',
    read: (name) => Promise.resolve(entries.get(name) ?? null),
    write: (name, value) => Promise.resolve(void entries.set(name, value)),
    remove: (name) => Promise.resolve(void entries.delete(name)),
  };
}
