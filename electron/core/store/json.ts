// Canonical JSON for the store: sorted keys at every depth, so equal records serialise to equal text
// (the audit chain hashes it; deposit conflict detection compares it).

/** Serialises like JSON.stringify but with object keys sorted; `undefined` members are dropped like JSON.stringify does. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    const source = value as Record<string, unknown>;
    const sorted: Record<string, unknown> = {};
    for (const key of Object.keys(source).sort()) {
      const member = source[key];
      if (member !== undefined) sorted[key] = sortKeys(member);
    }
    return sorted;
  }
  return value;
}

/** Parses a JSON column the store itself wrote (json_valid CHECKs guard it). */
export function parseJsonColumn(text: string): unknown {
  return JSON.parse(text) as unknown;
}

/** Parses a JSON column that holds an object (raw platform records). */
export function parseObjectColumn(text: string): Record<string, unknown> {
  const value = JSON.parse(text) as unknown;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return {};
  return value as Record<string, unknown>;
}
