// Proves PROTOCOL §4 and §6.1 helpers: nonce and timestamp syntax, the ±300 s window edges, 600 s nonce memory, getToken Authorization.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NONCE_MEMORY_SECONDS, TIMESTAMP_WINDOW_SECONDS } from '../../../electron/protocol/profile';
import {
  authorizationHeader,
  isValidNonce,
  isWithinWindow,
  newNonce,
  NonceMemory,
  parseTimestamp,
  unixSeconds,
} from '../../../electron/protocol/wire';
import { openssl } from '../../support/openssl';

describe('nonces (§4.3)', () => {
  it('newNonce is 32 lowercase hex characters and valid', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 1000; i += 1) {
      const nonce = newNonce();
      expect(nonce).toMatch(/^[0-9a-f]{32}$/);
      expect(isValidNonce(nonce)).toBe(true);
      seen.add(nonce);
    }
    expect(seen.size).toBe(1000);
  });

  it('accepts 16 to 64 characters of [A-Za-z0-9] and nothing else', () => {
    expect(isValidNonce('a'.repeat(16))).toBe(true);
    expect(isValidNonce('Z'.repeat(64))).toBe(true);
    expect(isValidNonce('aZ09'.repeat(8))).toBe(true);
    for (const bad of [
      '',
      'a'.repeat(15),
      'a'.repeat(65),
      `${'a'.repeat(31)}-`,
      `${'a'.repeat(31)}_`,
      `${'a'.repeat(32)}\n`,
      ` ${'a'.repeat(32)}`,
      `${'a'.repeat(31)}é`,
      `${'a'.repeat(31)}٣`, // an Arabic-Indic digit is not [0-9]
      `${'a'.repeat(30)}😀`,
    ]) {
      expect(isValidNonce(bad), JSON.stringify(bad)).toBe(false);
    }
  });

  it('property: isValidNonce agrees with an independent character-by-character check', () => {
    const alnum = (c: string): boolean => (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', 'Z', '0', '9', '-', ' ', 'é', '\n'), maxLength: 70 }), (text) => {
        const chars = [...text];
        expect(isValidNonce(text)).toBe(chars.length >= 16 && chars.length <= 64 && chars.every(alnum));
      }),
      { numRuns: 300 },
    );
  });
});

describe('timestamps (§4.1)', () => {
  it('parses decimal digits as whole seconds', () => {
    expect(parseTimestamp('1700000000')).toBe(1_700_000_000);
    expect(parseTimestamp('0')).toBe(0);
    expect(parseTimestamp('999999999999')).toBe(999_999_999_999);
  });

  it.each(['', ' 1700000000', '1700000000 ', '1700000000\n', '-1', '+1', '1.5', '1e9', '0x10', '1_000', '١٧٠٠', '1700000000000'])(
    'refuses %j',
    (text) => {
      expect(parseTimestamp(text)).toBeUndefined();
    },
  );

  it('unixSeconds floors the clock\'s milliseconds', () => {
    expect(unixSeconds(() => 1_700_000_000_999)).toBe(1_700_000_000);
    expect(unixSeconds(() => 1_700_000_001_000)).toBe(1_700_000_001);
    expect(Math.abs(unixSeconds() - Date.now() / 1000)).toBeLessThan(2);
  });
});

describe('the timestamp window (§4.2: |now - timestamp| <= 300 s)', () => {
  const now = 1_700_000_000;

  it('exactly 300 s either side is accepted; 301 s is refused, both directions', () => {
    expect(TIMESTAMP_WINDOW_SECONDS).toBe(300);
    expect(isWithinWindow(now, now)).toBe(true);
    expect(isWithinWindow(now - 300, now)).toBe(true);
    expect(isWithinWindow(now + 300, now)).toBe(true);
    expect(isWithinWindow(now - 301, now)).toBe(false);
    expect(isWithinWindow(now + 301, now)).toBe(false);
  });

  it('property: accepted exactly when the distance is at most 300', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1000, max: 1000 }), (offset) => {
        expect(isWithinWindow(now + offset, now)).toBe(Math.abs(offset) <= 300);
      }),
    );
  });
});

describe('NonceMemory (§4.4: repeats refused for 600 s)', () => {
  it('refuses a repeat up to and including 600 s later, and accepts it from 601 s', () => {
    expect(NONCE_MEMORY_SECONDS).toBe(600);
    const t = 1_700_000_000;
    const memory = new NonceMemory();
    const nonce = newNonce();
    expect(memory.remember(nonce, t)).toBe(true);
    expect(memory.remember(nonce, t)).toBe(false);
    expect(memory.remember(nonce, t + 1)).toBe(false);
    expect(memory.remember(nonce, t + 599)).toBe(false);
    expect(memory.has(nonce, t + 600)).toBe(true);
    expect(memory.remember(nonce, t + 600)).toBe(false);
    expect(memory.has(nonce, t + 601)).toBe(false);
    expect(memory.remember(nonce, t + 601)).toBe(true);
    // remembered afresh from 601
    expect(memory.remember(nonce, t + 1201)).toBe(false);
    expect(memory.remember(nonce, t + 1202)).toBe(true);
  });

  it('closes the replay edge: a message first seen at the early window edge cannot be replayed at the late edge', () => {
    const timestamp = 1_700_000_000;
    const memory = new NonceMemory();
    const nonce = newNonce();
    const firstSeen = timestamp - 300;
    expect(isWithinWindow(timestamp, firstSeen)).toBe(true);
    expect(memory.remember(nonce, firstSeen)).toBe(true);
    const replayAt = timestamp + 300;
    expect(isWithinWindow(timestamp, replayAt)).toBe(true);
    expect(memory.remember(nonce, replayAt)).toBe(false);
  });

  it('distinct nonces are independent; a refused repeat does not extend the memory', () => {
    const memory = new NonceMemory();
    expect(memory.remember('a'.repeat(32), 100)).toBe(true);
    expect(memory.remember('b'.repeat(32), 100)).toBe(true);
    expect(memory.remember('a'.repeat(32), 500)).toBe(false);
    expect(memory.remember('a'.repeat(32), 701)).toBe(true);
  });

  it('prunes expired nonces, keeping live ones, even when the clock stepped back', () => {
    const memory = new NonceMemory();
    for (let i = 0; i < 1000; i += 1) memory.remember(`old${i}`.padEnd(16, 'x'), 1000 + (i % 10));
    expect(memory.size).toBe(1000);
    memory.remember('live'.padEnd(16, 'x'), 1500);
    expect(memory.size).toBe(1001);
    // everything from 1000..1009 expired after 1609; the one from 1500 is live
    expect(memory.remember('new'.padEnd(16, 'x'), 1610)).toBe(true);
    expect(memory.size).toBe(2);
    expect(memory.remember('live'.padEnd(16, 'x'), 1610)).toBe(false);
    // a clock step back leaves entries in place, and `has` still answers from the expiry alone
    expect(memory.remember('back'.padEnd(16, 'x'), 1200)).toBe(true);
    expect(memory.has('live'.padEnd(16, 'x'), 1200)).toBe(true);
    expect(memory.remember('back'.padEnd(16, 'x'), 1800)).toBe(false);
    expect(memory.remember('back'.padEnd(16, 'x'), 1801)).toBe(true);
  });

  it('property: against a model that remembers forever with first-seen times', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom('n1', 'n2', 'n3', 'n4'), fc.integer({ min: 0, max: 400 })), { maxLength: 60 }),
        (steps) => {
          const memory = new NonceMemory();
          const acceptedAt = new Map<string, number>();
          let now = 10_000;
          for (const [nonce, advance] of steps) {
            now += advance;
            const last = acceptedAt.get(nonce);
            const expected = last === undefined || now - last > 600;
            expect(memory.remember(nonce.padEnd(16, '0'), now)).toBe(expected);
            if (expected) acceptedAt.set(nonce, now);
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('a custom memory length is honoured', () => {
    const memory = new NonceMemory(10);
    expect(memory.remember('c'.repeat(16), 0)).toBe(true);
    expect(memory.remember('c'.repeat(16), 10)).toBe(false);
    expect(memory.remember('c'.repeat(16), 11)).toBe(true);
  });
});

describe('getToken Authorization (§6.1)', () => {
  it.each([
    ['M100200', 's3cr3t'],
    ['merchant-1', 'secret with spaces & ampersand'],
    ['', ''],
    ['商户', 'ключ😀'],
  ])('%j / %j: "auth " + lowercase hex MD5 of MERCHANT_ID&SECRET, equal to openssl md5', (merchantId, secret) => {
    const header = authorizationHeader(merchantId, secret);
    expect(header).toMatch(/^auth [0-9a-f]{32}$/);
    const digest = openssl(['dgst', '-md5', '-r'], Buffer.from(`${merchantId}&${secret}`, 'utf8')).toString().split(' ')[0];
    expect(header).toBe(`auth ${digest}`);
  });

  it('matches fixed vectors (computed independently with Python hashlib.md5)', () => {
    expect(authorizationHeader('', '')).toBe('auth 6cff047854f19ac2aa52aac51bf3af4a');
    expect(authorizationHeader('M100200', 's3cr3t')).toBe('auth a128a87d28ed61fda020d1d27fdbecd2');
  });
});
