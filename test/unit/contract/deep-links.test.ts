// The deep-link parser (electron/contract/deep-links.ts): every kind opens its record (payees too); unknown
// kinds, bad ids, overlong links, control and direction characters, percent-encoding tricks, queries, fragments, extra
// path and other schemes are refused with a message, and the link comes back escaped for display.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEEP_LINK_MAX_CHARS, deepLinkInArgv, findUnsafeCharacter, parseDeepLink } from '../../../electron/contract';

const TXID = 'a1'.repeat(32);

describe('parseDeepLink', () => {
  it('opens a withdrawal, a batch and a deposit', () => {
    expect(parseDeepLink('treasury-desk://withdrawal/42')).toEqual({ outcome: 'open', target: { kind: 'withdrawal', id: '42' } });
    expect(parseDeepLink('treasury-desk://batch/7')).toEqual({ outcome: 'open', target: { kind: 'payoutBatch', id: '7' } });
    expect(parseDeepLink(`treasury-desk://deposit/${TXID}`)).toEqual({ outcome: 'open', target: { kind: 'deposit', txid: TXID } });
    // A trailing slash and an upper-case scheme (URL schemes are case-insensitive) are the same link.
    expect(parseDeepLink('TREASURY-DESK://withdrawal/42/')).toEqual({ outcome: 'open', target: { kind: 'withdrawal', id: '42' } });
  });

  it('opens a payee by its id, and refuses an id the payees list would never show', () => {
    const id = '3f2b8c1e-5a4d-4e6f-9a7b-0c1d2e3f4a5b';
    expect(parseDeepLink(`treasury-desk://payee/${id}`)).toEqual({ outcome: 'open', target: { kind: 'payee', id } });
    for (const link of ['treasury-desk://payee/ACME', 'treasury-desk://payee/-12', `treasury-desk://payee/${'a'.repeat(65)}`, 'treasury-desk://payee/a_b']) {
      expect(parseDeepLink(link), link).toMatchObject({ outcome: 'refused', problem: 'badId', message: expect.stringContaining('payee id') });
    }
  });

  it('shows an unknown kind as such, escaped', () => {
    expect(parseDeepLink('treasury-desk://approve/42')).toMatchObject({ outcome: 'refused', problem: 'unknownKind', message: expect.stringContaining('"approve"') });
    expect(parseDeepLink('treasury-desk://__proto__/1')).toMatchObject({ outcome: 'refused', problem: 'unknownKind' });
    expect(parseDeepLink('treasury-desk://constructor/1')).toMatchObject({ outcome: 'refused', problem: 'unknownKind' });
    expect(parseDeepLink('treasury-desk://Withdrawal/1')).toMatchObject({ outcome: 'refused', problem: 'unknownKind' });
  });

  it('refuses ids the contract would refuse', () => {
    for (const link of ['treasury-desk://withdrawal/0', 'treasury-desk://withdrawal/abc', 'treasury-desk://withdrawal/', 'treasury-desk://batch/1234567890123456', 'treasury-desk://deposit/short', 'treasury-desk://withdrawal/1.5']) {
      expect(parseDeepLink(link), link).toMatchObject({ outcome: 'refused', problem: 'badId' });
    }
  });

  it('refuses malformed links: other schemes, queries, fragments, further path, credentials, no kind', () => {
    for (const link of [
      'https://treasury-desk/withdrawal/1',
      'javascript:alert(1)',
      'treasury-desk:withdrawal/1',
      'treasury-desk://withdrawal/1?approve=yes',
      'treasury-desk://withdrawal/1#approve',
      'treasury-desk://withdrawal/1/approve',
      'treasury-desk://withdrawal/../batch/1',
      'treasury-desk://user:pass@withdrawal/1',
      'treasury-desk://withdrawal',
      'treasury-desk://',
      '',
    ]) {
      const intent = parseDeepLink(link);
      expect(intent, link).toMatchObject({ outcome: 'refused' });
      expect(intent.outcome === 'refused' ? intent.problem : null, link).toMatch(/malformed|unknownKind|badId/);
    }
    expect(parseDeepLink('https://example.com/')).toMatchObject({ problem: 'malformed', message: expect.stringContaining('not a Treasury Desk link') });
    expect(parseDeepLink(42)).toMatchObject({ outcome: 'refused', problem: 'malformed', link: '' });
  });

  it('refuses overlong links unread, and shows only their start', () => {
    const long = `treasury-desk://deposit/${'a'.repeat(DEEP_LINK_MAX_CHARS)}`;
    const intent = parseDeepLink(long);
    expect(intent).toMatchObject({ outcome: 'refused', problem: 'malformed', message: expect.stringContaining(`longer than ${DEEP_LINK_MAX_CHARS}`) });
    expect(intent.outcome === 'refused' ? intent.link.length : 0).toBeLessThan(130);
  });

  it('refuses control, direction and non-ASCII characters, and escapes them in what it shows', () => {
    for (const link of ['treasury-desk://withdrawal/4\u00002', 'treasury-desk://withdrawal/42\n', 'treasury-desk://withdrawal/\u202E24', 'treasury-desk://with\u200Fdrawal/42', 'treasury-desk://withdrawal/４２', 'treasury-desk://withdrawal/4 2', '\u001b[31mtreasury-desk://withdrawal/42']) {
      const intent = parseDeepLink(link);
      expect(intent, JSON.stringify(link)).toMatchObject({ outcome: 'refused', problem: 'malformed' });
      if (intent.outcome === 'refused') expect(findUnsafeCharacter(intent.link), JSON.stringify(intent.link)).toBeNull();
    }
    expect(parseDeepLink('treasury-desk://withdrawal/\u202E24')).toMatchObject({ link: 'treasury-desk://withdrawal/⟨U+202E⟩24' });
  });

  it('never decodes percent-encoding: encoded digits, slashes, dots and controls are refused', () => {
    for (const link of ['treasury-desk://withdrawal/%34%32', 'treasury-desk://withdrawal%2F42', 'treasury-desk://withdrawal/%2e%2e', 'treasury-desk://withdrawal/42%00', 'treasury-desk://withdrawal/%2534%2532', 'treasury-desk://%77ithdrawal/42']) {
      expect(parseDeepLink(link), link).toMatchObject({ outcome: 'refused', problem: 'malformed', message: expect.stringContaining('percent-encoded') });
    }
  });

  it('opens something only for the three well-formed kinds, whatever the text (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 400 }), (text) => {
        const intent = parseDeepLink(text);
        if (intent.outcome === 'open') {
          expect(text.toLowerCase().startsWith('treasury-desk://')).toBe(true);
          expect(['withdrawal', 'payoutBatch', 'deposit']).toContain(intent.target.kind);
        } else {
          expect(findUnsafeCharacter(intent.link)).toBeNull();
          expect(intent.message).toMatch(/nothing was opened/);
        }
      }),
    );
  });
});

describe('deepLinkInArgv', () => {
  it('finds the link Windows and Linux pass on the command line, and nothing else', () => {
    expect(deepLinkInArgv(['/opt/Treasury Desk/treasury-desk', '--no-sandbox', 'treasury-desk://batch/3'])).toBe('treasury-desk://batch/3');
    expect(deepLinkInArgv(['C:\\Treasury Desk.exe', '--', 'TREASURY-DESK://withdrawal/1'])).toBe('TREASURY-DESK://withdrawal/1');
    expect(deepLinkInArgv(['/opt/treasury-desk', '--version'])).toBeNull();
  });
});
