// The log's redaction layer (core/log/redact.ts): every secret field name, every kind of registered secret in every
// encoding, the secret shapes it knows without registration, errors with causes, nested objects and arrays; and what it
// must leave alone (addresses, txids, public keys, fingerprints, error codes).
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MAX_LOGGED_STRING_LENGTH, Redactor, REDACTED, registerSecretFields, type SecretKind } from '../../../electron/core/log/redact';
import { generateSigningKey } from '../../../electron/core/statements/keys';

const TRON_ADDRESS = 'TJYeasTPa6gpEEfYqP7qrVE5ZFb6bpdcq3';
const EVM_ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';
const TXID = 'a'.repeat(8) + '0123456789abcdef'.repeat(3) + 'deadbeef';
const FINGERPRINT = 'K7QD-3MZA-XW2P-7FHL';

function rsaKey() {
  return generateKeyPairSync('rsa', { modulusLength: 2048 });
}

function textOf(value: unknown): string {
  return JSON.stringify(value);
}

describe('fields named like secrets', () => {
  const redactor = new Redactor();
  const names = [
    'passphrase',
    'newPassphrase',
    'password',
    'secret',
    'merchantSecret',
    'client_secret',
    'privateKey',
    'merchantPrivateKey',
    'token',
    'accessToken',
    'SVC-TOKEN',
    'authorization',
    'Authorization',
    'cookie',
    'apiKey',
    'mnemonic',
    'deskKey',
    'signingKey',
    'invitationCode',
  ];

  it.each(names)('redacts the text of %s, however short, at any depth and inside arrays', (name) => {
    const record = { [name]: 'x1', nested: { deeper: [{ [name]: 'y2' }] } };
    expect(redactor.redactValue(record)).toEqual({ [name]: REDACTED, nested: { deeper: [{ [name]: REDACTED }] } });
  });

  it('redacts a whole object or array under a secret name (credentials, an acting operator)', () => {
    const record = {
      credentials: { merchantId: 'm-1', secret: 's', platformPublicKey: 'p', merchantPrivateKey: 'k' },
      as: { operator: 'alice', passphrase: 'alice passphrase 1' },
      admins: [{ operator: 'frank', passphrase: 'frank passphrase 6' }],
    };
    expect(redactor.redactValue(record)).toEqual({
      credentials: REDACTED,
      as: { operator: 'alice', passphrase: REDACTED },
      admins: [{ operator: 'frank', passphrase: REDACTED }],
    });
  });

  it("redacts an invitation `code` but keeps error codes, Node's codes and numbers", () => {
    expect(redactor.redactValue({ code: 'ABCD-EFGH-IJKL-M' })).toEqual({ code: REDACTED });
    expect(redactor.redactValue({ code: 'abcdefghijklm' })).toEqual({ code: REDACTED });
    expect(redactor.redactValue({ code: 'invalidInput', error: { code: 'tokenExpired' } })).toEqual({ code: 'invalidInput', error: { code: 'tokenExpired' } });
    expect(redactor.redactValue({ code: 'internal', error: { code: 'locked' } })).toEqual({ code: 'internal', error: { code: 'locked' } });
    expect(redactor.redactValue({ code: 'ENOENT', other: { code: 'ERR_INVALID_ARG_TYPE' } })).toEqual({ code: 'ENOENT', other: { code: 'ERR_INVALID_ARG_TYPE' } });
    expect(redactor.redactValue({ code: 10000 })).toEqual({ code: 10000 });
  });

  it('keeps flags and counts whose names mention a secret (they cannot carry one)', () => {
    expect(redactor.redactValue({ hasToken: true, secretCount: 2, passphrase: null })).toEqual({ hasToken: true, secretCount: 2, passphrase: null });
  });
});

describe('public data', () => {
  it('passes addresses, txids, public keys, fingerprints, amounts and names unchanged', () => {
    const redactor = new Redactor();
    redactor.register('a registered secret value', 'merchantSecret');
    const signing = generateSigningKey();
    const { publicKey } = rsaKey();
    const record = {
      address: TRON_ADDRESS,
      toAddress: EVM_ADDRESS,
      txid: TXID,
      operatorPublicKey: signing.publicKey,
      keyId: signing.keyId,
      fingerprint: FINGERPRINT,
      platformPublicKey: publicKey.export({ format: 'pem', type: 'spki' }).toString(),
      amount: '1234.567891',
      merchantId: 'merchant-0042',
      message: `sent 12.5 USDT to ${TRON_ADDRESS} (txid ${TXID}), key ${FINGERPRINT}`,
    };
    expect(redactor.redactValue(record)).toEqual(record);
    expect(redactor.redactValue({ key: publicKey })).toEqual({ key: '[public key]' });
  });
});

describe('registered secrets', () => {
  const KINDS: readonly SecretKind[] = ['merchantSecret', 'authorization', 'accessToken', 'passphrase', 'invitationCode', 'secretField'];

  it.each(KINDS)('replaces a registered %s in text, as base64, base64url, hex, JSON-escaped and URL-encoded', (kind) => {
    const redactor = new Redactor();
    const secret = `s3cr3t "${kind}"+/ ${randomBytes(6).toString('hex')}`;
    redactor.register(secret, kind);
    const bytes = Buffer.from(secret, 'utf8');
    const forms = [secret, bytes.toString('base64'), bytes.toString('base64url'), bytes.toString('hex'), bytes.toString('hex').toUpperCase(), JSON.stringify(secret).slice(1, -1), encodeURIComponent(secret)];
    for (const form of forms) {
      const out = redactor.redactValue({ message: `before ${form} after`, list: [`x${form}`] });
      expect(textOf(out)).not.toContain(form);
      expect(out).toEqual({ message: `before [redacted ${kind}] after`, list: [`x[redacted ${kind}]`] });
    }
  });

  it('replaces an RSA merchant private key registered as a KeyObject in every encoding a log could show', () => {
    const redactor = new Redactor();
    const { privateKey } = rsaKey();
    redactor.register(privateKey, 'merchantPrivateKey');
    const pkcs8 = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    const pkcs1 = privateKey.export({ format: 'pem', type: 'pkcs1' }).toString();
    const der = privateKey.export({ format: 'der', type: 'pkcs8' });
    const jwk = privateKey.export({ format: 'jwk' }) as Record<string, string>;
    const bodyLine = pkcs8.split('\n')[5] ?? '';
    const forms = [pkcs8, pkcs1, der.toString('base64'), der.toString('hex'), der.toString('base64url'), bodyLine, jwk['d'] ?? '', jwk['p'] ?? '', JSON.stringify(pkcs8).slice(1, -1)];
    for (const form of forms) {
      expect(form.length).toBeGreaterThan(16);
      const out = textOf(redactor.redactValue({ message: `key: ${form}` }));
      expect(out, form.slice(0, 40)).not.toContain(form.trim());
      expect(out).toContain('[redacted');
    }
  });

  it('replaces an Ed25519 desk or operator key registered as a KeyObject (its keychain form: base64 of the DER)', () => {
    const redactor = new Redactor();
    const pair = generateSigningKey();
    redactor.register(pair.privateKey, 'deskKey');
    const stored = pair.privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64');
    expect(redactor.redactValue({ note: `entry ${stored}` })).toEqual({ note: 'entry [redacted deskKey]' });
    // Its public key is public.
    expect(redactor.redactValue({ note: pair.publicKey })).toEqual({ note: pair.publicKey });
  });

  it('replaces a key given as text (PEM or bare base64 DER) by its body too', () => {
    const redactor = new Redactor();
    const { privateKey } = rsaKey();
    const pem = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    const bare = pem.replace(/-----[A-Z ]+-----/g, '').replace(/\s+/g, '');
    redactor.register(bare, 'merchantPrivateKey');
    expect(textOf(redactor.redactValue({ pem }))).not.toContain(bare.slice(0, 64));
    expect(redactor.redactText(`bare ${bare} end`)).toBe('bare [redacted merchantPrivateKey] end');
  });

  it('does not redact by value a text shorter than 8 characters (it would garble logs); its field still is', () => {
    const redactor = new Redactor();
    redactor.register('abc1234', 'passphrase');
    expect(redactor.redactValue({ message: 'abc1234', passphrase: 'abc1234' })).toEqual({ message: 'abc1234', passphrase: REDACTED });
  });

  it('registers every secret-named field of a request, however deep (passphrases, codes, pasted credentials)', () => {
    const redactor = new Redactor();
    const request = {
      name: 'bob',
      code: 'WXYZ-2345-ABCD-E',
      passphrase: 'bob new passphrase 1',
      as: { operator: 'alice', passphrase: 'alice passphrase 1' },
      admins: [{ operator: 'frank', passphrase: 'frank passphrase 6' }],
      credentials: { merchantId: 'merchant-7', secret: 'the merchant secret text', merchantPrivateKey: 'not a real key but secret' },
    };
    registerSecretFields(redactor, request);
    const text = redactor.redactText(
      'bob new passphrase 1 / alice passphrase 1 / frank passphrase 6 / WXYZ-2345-ABCD-E / the merchant secret text / not a real key but secret / merchant-7',
    );
    expect(text).toBe(
      '[redacted passphrase] / [redacted passphrase] / [redacted passphrase] / [redacted invitationCode] / [redacted merchantSecret] / [redacted merchantPrivateKey] / merchant-7',
    );
  });
});

describe('secret shapes without registration', () => {
  const redactor = new Redactor();

  it('replaces PEM private key blocks, whole, cut short or JSON-escaped, but not public keys', () => {
    const { privateKey, publicKey } = rsaKey();
    const pem = privateKey.export({ format: 'pem', type: 'pkcs1' }).toString();
    const publicPem = publicKey.export({ format: 'pem', type: 'spki' }).toString();
    expect(redactor.redactText(`a ${pem.trim()} b`)).toBe('a [redacted private key] b');
    expect(redactor.redactText(pem.slice(0, 200))).toBe('[redacted private key]');
    expect(redactor.redactText(JSON.stringify({ key: pem.trim() }))).toBe('{"key":"[redacted private key]"}');
    expect(redactor.redactText(publicPem)).toBe(publicPem);
  });

  it('replaces bearer tokens, the Authorization header, SVC-TOKEN headers and invitation codes, not fingerprints', () => {
    expect(redactor.redactText('Authorization: Bearer eyJhbGciOi.J9x_y-z==')).toBe('Authorization: Bearer [redacted]');
    expect(redactor.redactText('Authorization: auth 0123456789abcdef0123456789ABCDEF')).toBe('Authorization: auth [redacted]');
    expect(redactor.redactText('SVC-TOKEN: Zm9vYmFy_-')).toBe('SVC-TOKEN: [redacted]');
    expect(redactor.redactText('{"SVC-TOKEN":"Zm9vYmFy"}')).toBe('{"SVC-TOKEN":"[redacted]"}');
    expect(redactor.redactText('give bob QWER-TY23-4567-A now')).toBe('give bob [redacted invitationCode] now');
    expect(redactor.redactText(`key ${FINGERPRINT} checked`)).toBe(`key ${FINGERPRINT} checked`);
  });

  it("replaces a team database URL's password, keeping the role, host and database", () => {
    expect(redactor.redactText('connect postgres://desk:pa%40ss:w0rd@db.example:5432/treasury?sslmode=verify-full failed')).toBe(
      'connect postgres://desk:[redacted]@db.example:5432/treasury?sslmode=verify-full failed',
    );
    expect(redactor.redactText('{"url":"postgresql://desk:hunter2-long@10.0.0.5/td"}')).toBe('{"url":"postgresql://desk:[redacted]@10.0.0.5/td"}');
    expect(redactor.redactText('postgres://desk@db.example/treasury and mail bob@example.org')).toBe('postgres://desk@db.example/treasury and mail bob@example.org');
  });

  it('replaces secret assignments in free text (query strings, JSON text) and keeps the rest', () => {
    expect(redactor.redactText('GET /x?token=abc123&page=2')).toBe('GET /x?token=[redacted]&page=2');
    expect(redactor.redactText('passphrase="two words" ok')).toBe('passphrase=[redacted] ok');
    expect(redactor.redactText('{"secret": "hush", "merchantId": "m-1"}')).toBe('{"secret": "[redacted]", "merchantId": "m-1"}');
    expect(redactor.redactText("as.passphrase: enter the passphrase")).toBe('as.passphrase: enter the passphrase');
  });
});

describe('errors', () => {
  it('keeps type, message, stack, own fields and the whole cause chain, each redacted', () => {
    const redactor = new Redactor();
    redactor.register('merchant secret 12345', 'merchantSecret');
    const { privateKey } = rsaKey();
    const pem = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    const root = Object.assign(new Error(`inner with ${pem.trim()}`), { code: 'ENOENT', passphrase: 'oops' });
    const middle = new TypeError('middle said merchant secret 12345', { cause: root });
    const top = new Error('top', { cause: middle });
    const out = redactor.redactValue({ error: top }) as { error: Record<string, unknown> };
    const text = textOf(out);
    expect(text).not.toContain('merchant secret 12345');
    expect(text).not.toContain(pem.split('\n')[3] ?? 'unreachable');
    expect(out.error).toMatchObject({
      type: 'Error',
      message: 'top',
      cause: { type: 'TypeError', message: 'middle said [redacted merchantSecret]', cause: { type: 'Error', message: 'inner with [redacted private key]', code: 'ENOENT', passphrase: REDACTED } },
    });
    expect(String(out.error['stack'])).toMatch(/^Error: top\n\s+at /);
    expect(String((out.error['cause'] as Record<string, unknown>)['stack'])).toContain('[redacted merchantSecret]');
  });

  it('redacts AggregateError members and thrown non-errors', () => {
    const redactor = new Redactor();
    redactor.register('access-token-value-xyz', 'accessToken');
    const aggregate = new AggregateError([new Error('one access-token-value-xyz'), 'two access-token-value-xyz'], 'both failed');
    expect(textOf(redactor.redactValue({ error: aggregate }))).not.toContain('access-token-value-xyz');
    expect(redactor.redactValue({ reason: 'rejected with access-token-value-xyz' })).toEqual({ reason: 'rejected with [redacted accessToken]' });
  });
});

describe('shape of what comes out', () => {
  const redactor = new Redactor();

  it('is plain JSON data: circular references, depth, engine objects, bytes, keys, maps and sets', () => {
    const circular: Record<string, unknown> = { name: 'loop' };
    circular['self'] = circular;
    class DeskThing {
      readonly secretHeld = 'never dumped';
    }
    const { privateKey } = rsaKey();
    const out = redactor.redactValue({
      circular,
      deep: { a: { b: { c: { d: { e: { f: { g: 1 } } } } } } },
      thing: new DeskThing(),
      bytes: randomBytes(32),
      key: privateKey,
      map: new Map([['passphrase', 'p'], ['operator', 'o']]),
      set: new Set(['one']),
      when: new Date(0),
      big: 12n,
      fn: () => undefined,
    });
    expect(out).toEqual({
      circular: { name: 'loop', self: '[circular]' },
      deep: { a: { b: { c: { d: { e: '[too deep]' } } } } },
      thing: '[DeskThing]',
      bytes: '[32 bytes]',
      key: '[redacted key]',
      map: { passphrase: REDACTED, operator: 'o' },
      set: ['one'],
      when: '1970-01-01T00:00:00.000Z',
      big: '12',
      fn: '[function]',
    });
  });

  it('cuts long strings only after redacting, so no part of a secret is left at the cut', () => {
    const local = new Redactor();
    const secret = 'S'.repeat(40);
    local.register(secret, 'merchantSecret');
    const text = `${'x'.repeat(MAX_LOGGED_STRING_LENGTH - 10)}${secret}${'y'.repeat(100)}`;
    const out = (local.redactValue({ text }) as { text: string }).text;
    expect(out).not.toContain('SSSSSSSS');
    expect(out).toMatch(/more characters\]$/);
  });
});

describe('the last pass over a written line', () => {
  it('removes registered secrets in their JSON-escaped form and keeps the line valid JSON', () => {
    const redactor = new Redactor();
    const { privateKey } = rsaKey();
    const pem = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    redactor.register(privateKey, 'merchantPrivateKey');
    redactor.register('quote"and\\backslash secret', 'passphrase');
    const line = JSON.stringify({ msg: 'x', a: pem, b: 'quote"and\\backslash secret', c: `Bearer abc.def` });
    const scrubbed = redactor.scrubLine(line);
    const parsed = JSON.parse(scrubbed) as Record<string, string>;
    expect(parsed).toEqual({ msg: 'x', a: '[redacted merchantPrivateKey]', b: '[redacted passphrase]', c: 'Bearer [redacted]' });
    expect(redactor.findSecret(scrubbed)).toBeNull();
    expect(redactor.findSecret(line)).toBe('merchantPrivateKey');
  });
});
