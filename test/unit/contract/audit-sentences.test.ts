// The audit sentence function: every action the engine can record (each statement kind's action, every operator action
// and desk event of the registry) has a sentence of its own, so a new action without one fails here; an unknown action
// still shows its name and details; text from people and the network is escaped; amounts come in the face's format.
import { describe, expect, it } from 'vitest';
import { AUDIT_ACTIONS, auditActionLabel, AUDIT_SENTENCES, auditSentence, type AuditSentenceInput } from '../../../electron/contract/audit-sentences';
import { findUnsafeCharacter } from '../../../electron/contract/display-text';
import { actionOf } from '../../../electron/core/audit/audit-table';
import { ACTION_RULES } from '../../../electron/core/ledger/kinds/action';
import { SYSTEM_ACTIONS } from '../../../electron/core/ledger/kinds/system';
import { STATEMENT_KINDS } from '../../../electron/core/statements/statement';

/** Every `domain/verb` the audit log can hold: the kinds' (audit-table.ts actionOf), the operator actions, the desk events. */
function recordedActions(): string[] {
  const byKind = STATEMENT_KINDS.filter((kind) => kind !== 'action' && kind !== 'system').map((kind) => actionOf(kind, {}));
  return [...new Set([...byKind, ...Object.keys(ACTION_RULES), ...SYSTEM_ACTIONS])].sort();
}

const row = (input: Partial<AuditSentenceInput> & { action: string }): AuditSentenceInput => ({ kind: 'system', operator: null, subject: null, details: {}, ...input });

describe('auditSentence', () => {
  it('has a sentence for every action the desk records', () => {
    const recorded = recordedActions();
    expect(recorded.length).toBeGreaterThan(60);
    expect(recorded.filter((action) => !Object.hasOwn(AUDIT_SENTENCES, action)), 'actions without a sentence').toEqual([]);
  });

  it('names a held send with its holds, escaped', () => {
    expect(auditSentence(row({ action: 'withdrawals/sendHeld', subject: 'td-1', details: { id: 4, operator: 'carol', holds: ['the daily limit\u202E is reached', 7] } }))).toBe(
      'The desk held withdrawal request 4 (order td-1) instead of sending it: the daily limit⟨U+202E⟩ is reached',
    );
  });

  it('writes each known action as a sentence that is not the fallback, whatever its details hold', () => {
    for (const action of AUDIT_ACTIONS) {
      for (const details of [{}, null, 'text', [1, 2], { rows: 3, reason: 'x', id: 7 }]) {
        const sentence = auditSentence(row({ action, operator: 'alice', subject: 'subject-1', details }));
        expect(sentence, action).not.toMatch(/ recorded [a-z]+\//);
        expect(sentence.length, action).toBeGreaterThan(10);
      }
    }
  });

  it('names the request a decision is about, with the amount in the face format', () => {
    const input = row({
      kind: 'approve',
      action: 'withdrawals/approve',
      operator: 'Alice',
      subject: 'a'.repeat(64),
      details: { fingerprint: 'ABCD-EFGH-IJKL-MNOP' },
      withdrawal: { fingerprint: 'ABCD-EFGH-IJKL-MNOP', amount: '1250.5', currency: 'trx.usdt', toAddress: 'TXYZ', batchLines: null },
    });
    expect(auditSentence(input)).toBe('Alice approved withdrawal ABCD-EFGH-IJKL-MNOP of 1250.5 USDT on TRON to TXYZ');
    expect(auditSentence(input, { amount: (amount, currency) => `${amount.replace('1250', '1,250')} [${currency}]` })).toBe(
      'Alice approved withdrawal ABCD-EFGH-IJKL-MNOP of 1,250.5 [trx.usdt] to TXYZ',
    );
  });

  it('says "The desk" for rows the desk key signed', () => {
    expect(auditSentence(row({ action: 'deposits/export', details: { rows: 40 } }))).toBe('The desk exported 40 deposits');
    expect(auditSentence(row({ action: 'deposits/export', details: { rows: 1 } }))).toBe('The desk exported 1 deposit');
  });

  it('escapes control and text-direction characters from the network and from people, on one line', () => {
    const refused = auditSentence(row({ action: 'callbacks/refused', details: { reason: 'bad \u001b[31msignature\u202E\nline two' } }));
    expect(refused).toBe('The desk refused a callback: bad ⟨U+001B⟩[31msignature⟨U+202E⟩⟨U+000A⟩line two');
    const named = auditSentence(row({ kind: 'reject', action: 'withdrawals/reject', operator: 'bob\u200F', subject: 'x', details: { reason: 'no\u2066' } }));
    expect(findUnsafeCharacter(named)).toBeNull();
    expect(named).toContain('bob⟨U+200F⟩ rejected');
  });

  it('shows an unknown action by its name and details, escaped', () => {
    expect(auditSentence(row({ action: 'webhooks/sent\u202E', operator: 'carol', subject: 'ord-1', details: { to: 'https://example.test', note: '\u202Ex\u001b' } }))).toBe(
      'carol recorded webhooks/sent⟨U+202E⟩ about ord-1: {"to":"https://example.test","note":"⟨U+202E⟩x\\u001b"}',
    );
    expect(auditSentence(row({ action: 'labels/merge' }))).toBe('The desk recorded labels/merge');
  });

  it('names an unknown currency by its escaped symbol', () => {
    const sentence = auditSentence(row({ kind: 'request', action: 'withdrawals/request', operator: 'carol', subject: 'h', withdrawal: { fingerprint: 'F', amount: '1', currency: 'odd\u202Ecoin', toAddress: 'T', batchLines: null } }));
    expect(sentence).toBe('carol requested withdrawal F of 1 odd⟨U+202E⟩coin to T');
  });
});

describe('auditActionLabel', () => {
  it('names an action for people', () => {
    expect(auditActionLabel('withdrawals/submitRefused')).toBe('Withdrawals: submit refused');
    expect(auditActionLabel('operators/withdraw-proposal')).toBe('Operators: withdraw proposal');
    expect(auditActionLabel('system')).toBe('System');
  });
});
