// The callback listener's refusal list (core/callbacks/refusals.ts, RefusalLog): newest first, at most
// CALLBACK_REFUSALS_KEPT with counts that keep every refusal, reasons cut to their bound; the verifier's failure mapped
// to its stable code; and docs/callbacks.md naming every code with the words the faces show.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CALLBACK_REFUSAL_CODES, CALLBACK_REFUSAL_REASON_MAX_CHARS, CALLBACK_REFUSAL_WORDS, CALLBACK_REFUSALS_KEPT } from '../../../electron/contract';
import { RefusalLog, refusalCodeOf } from '../../../electron/core/callbacks/refusals';
import { CipherError, ResponseVerificationError } from '../../../electron/protocol';

describe('RefusalLog', () => {
  it('answers newest first, keeps the last CALLBACK_REFUSALS_KEPT, counts every refusal per code and cuts long reasons', () => {
    const log = new RefusalLog();
    for (let index = 0; index < CALLBACK_REFUSALS_KEPT + 5; index += 1) {
      log.record({ at: index, source: '127.0.0.1', status: 400, code: index % 2 === 0 ? 'badSignature' : 'replayedNonce', reason: `refusal ${index}` });
    }
    log.record({ at: 1_000, source: '::1', status: 413, code: 'bodyTooLarge', reason: 'x'.repeat(CALLBACK_REFUSAL_REASON_MAX_CHARS * 4) });
    const view = log.view();
    expect(view.refusals).toHaveLength(CALLBACK_REFUSALS_KEPT);
    expect(view.refusals[0]).toMatchObject({ at: 1_000, code: 'bodyTooLarge', status: 413, source: '::1' });
    expect(view.refusals[0]?.reason).toHaveLength(CALLBACK_REFUSAL_REASON_MAX_CHARS);
    expect(view.refusals[1]?.reason).toBe(`refusal ${CALLBACK_REFUSALS_KEPT + 4}`);
    expect(view.refusals.at(-1)?.reason).toBe('refusal 6');
    expect(view.total).toBe(CALLBACK_REFUSALS_KEPT + 6);
    expect(view.counts).toEqual([
      { code: 'bodyTooLarge', count: 1 },
      { code: 'badSignature', count: (CALLBACK_REFUSALS_KEPT + 6) / 2 },
      { code: 'replayedNonce', count: (CALLBACK_REFUSALS_KEPT + 4) / 2 },
    ]);
    expect(view.kept).toBe(CALLBACK_REFUSALS_KEPT);
  });
});

describe('refusalCodeOf', () => {
  it('names the check a verification failure came from, and "other" for anything else', () => {
    expect(refusalCodeOf(new ResponseVerificationError('staleTimestamp', 'callback', 'late'))).toBe('staleTimestamp');
    expect(refusalCodeOf(new ResponseVerificationError('unexpectedResponse', 'callback', 'a failure envelope'))).toBe('notSuccess');
    expect(refusalCodeOf(new CipherError('oaepFailed', 'unreadable'))).toBe('other');
  });
});

describe('docs/callbacks.md', () => {
  it('has a row for every refusal code with the words the faces show', () => {
    const text = readFileSync(join(import.meta.dirname, '../../../docs/callbacks.md'), 'utf8');
    for (const code of CALLBACK_REFUSAL_CODES) expect(text).toContain(`| \`${code}\` | ${CALLBACK_REFUSAL_WORDS[code]} |`);
  });
});
