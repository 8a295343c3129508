// The canonical encoding of signed statements (APPROVALS.md "Statements"): JSON with object keys sorted by UTF-16
// code unit at every depth, no insignificant white space, every string in Unicode NFC, integers only (money is a
// decimal string), no undefined, no floats. Equal meaning gives equal bytes, so a signature over the bytes is a
// signature over the meaning. Invariant: encodeCanonical refuses (throws) rather than silently change a value.

export type CanonicalValue = null | boolean | number | string | readonly CanonicalValue[] | { readonly [key: string]: CanonicalValue };

export class CanonicalEncodingError extends Error {
  override readonly name = 'CanonicalEncodingError';
}

function encode(value: unknown, path: string): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isSafeInteger(value)) throw new CanonicalEncodingError(`${path}: only safe integers may be signed (money is a decimal string), got ${value}`);
      return String(value);
    case 'string':
      return JSON.stringify(value.normalize('NFC'));
    case 'object': {
      if (Array.isArray(value)) return `[${value.map((item, index) => encode(item, `${path}[${index}]`)).join(',')}]`;
      const source = value as Record<string, unknown>;
      // Keys are normalised before they are sorted (the output must be sorted as written), and two keys that are the
      // same text in NFC would write a duplicate key: refused.
      const byName = new Map<string, string>();
      for (const key of Object.keys(source)) {
        const name = key.normalize('NFC');
        if (byName.has(name)) throw new CanonicalEncodingError(`${path}: two keys are ${JSON.stringify(name)} in NFC`);
        byName.set(name, key);
      }
      const members: string[] = [];
      for (const name of [...byName.keys()].sort()) {
        const key = byName.get(name) as string;
        const member = source[key];
        if (member === undefined) throw new CanonicalEncodingError(`${path}.${key} is undefined: use null`);
        members.push(`${JSON.stringify(name)}:${encode(member, `${path}.${key}`)}`);
      }
      return `{${members.join(',')}}`;
    }
    default:
      throw new CanonicalEncodingError(`${path}: a ${typeof value} cannot be signed`);
  }
}

/** The canonical text of a value; throws CanonicalEncodingError for anything that has no canonical form. */
export function encodeCanonical(value: unknown): string {
  return encode(value, '$');
}

/** Parses canonical text and checks it IS canonical (re-encoding gives the same bytes), else null. */
export function parseCanonical(text: string): CanonicalValue | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
    if (encodeCanonical(value) !== text) return null;
  } catch {
    return null;
  }
  return value as CanonicalValue;
}
