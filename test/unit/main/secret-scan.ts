// Test-only defensive check that an IPC answer carries nothing secret-looking: no private-key PEM, no field named
// like a credential. Wired into the IPC tests through registerContractIpc's inspectResult hook.
const SECRET_FIELD = /^(secret|secretKey|apiSecret|passphrase|password|token|accessToken|privateKey|merchantPrivateKey|privateKeyPem)$/i;
const SECRET_TEXT = /-----BEGIN [A-Z ]*PRIVATE KEY-----/;

/** The path of the first secret-looking field or value in `value`, or null when it looks clean. */
export function findSecretLikeContent(value: unknown, path = '$', seen = new Set<unknown>()): string | null {
  if (typeof value === 'string') return SECRET_TEXT.test(value) ? path : null;
  if (typeof value !== 'object' || value === null || seen.has(value)) return null;
  seen.add(value);
  for (const [key, child] of Object.entries(value)) {
    const childPath = Array.isArray(value) ? `${path}[${key}]` : `${path}.${key}`;
    // A failed Result's `error.fields` maps field NAMES to messages for forms: its keys are not values.
    const isFieldMessages = path.endsWith('.error') && key === 'fields';
    if (isFieldMessages) {
      const text = Object.values(child ?? {}).find((message) => typeof message === 'string' && SECRET_TEXT.test(message));
      if (text !== undefined) return childPath;
      continue;
    }
    if (!Array.isArray(value) && SECRET_FIELD.test(key)) return childPath;
    const found = findSecretLikeContent(child, childPath, seen);
    if (found !== null) return found;
  }
  return null;
}

/** Throws when `result` looks like it carries a secret (the message names the path, never the value). */
export function assertNoSecrets(method: string, result: unknown): void {
  const found = findSecretLikeContent(result);
  if (found !== null) throw new Error(`${method} answered a secret-looking field at ${found}`);
}
