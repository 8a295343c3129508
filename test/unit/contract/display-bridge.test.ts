// Proves the renderer's chokepoint (displaySafeBridge, used by renderer/src/api.ts for every call and event): ESC,
// bidi overrides and isolates, C1, NUL and CR in values, error messages, field messages, service reasons and event
// payloads come out as ⟨U+XXXX⟩; identifiers, numbers, booleans, nulls and ordinary text come out unchanged.
import { describe, expect, it } from 'vitest';
import {
  UNSAFE_TEXT_CHARACTERS,
  type ContractEvent,
  type WindowMethodName,
  type RequestOf,
  type ResponseOf,
  type Result,
  type TreasuryBridge,
  type WithdrawalView,
} from '../../../electron/contract';
import { displaySafeBridge } from '../../../electron/contract/display-bridge';

const NASTY = 'pay \u001b[31mred \u202Eexe.pdf \u2066iso\u2069 \u009b2J nul\u0000 cr\r tab\t rlm\u200F1,000 lrm\u200E alm\u061C';
const SHOWN = 'pay ⟨U+001B⟩[31mred ⟨U+202E⟩exe.pdf ⟨U+2066⟩iso⟨U+2069⟩ ⟨U+009B⟩2J nul⟨U+0000⟩ cr⟨U+000D⟩ tab⟨U+0009⟩ rlm⟨U+200F⟩1,000 lrm⟨U+200E⟩ alm⟨U+061C⟩';
const ORDINARY = 'Zürich 東京 — עברית\nsecond line';

/** Every string (keys too) inside `value` is free of raw unsafe characters. */
function expectNoRawUnsafe(value: unknown): void {
  const strings: string[] = [];
  const walk = (item: unknown): void => {
    if (typeof item === 'string') strings.push(item);
    else if (Array.isArray(item)) item.forEach(walk);
    else if (item !== null && typeof item === 'object') {
      for (const [key, member] of Object.entries(item)) {
        strings.push(key);
        walk(member);
      }
    }
  };
  walk(value);
  expect(strings.length).toBeGreaterThan(0);
  expect(strings.filter((text) => UNSAFE_TEXT_CHARACTERS.test(text))).toEqual([]);
}

const view: WithdrawalView = {
  id: '42',
  fingerprint: 'ab12 cd34 ef56 7890',
  verification: { ok: false, countedApprovals: 0, requiredApprovals: 2, problems: [NASTY] },
  currency: 'trx.usdt',
  amount: '10.5',
  toAddress: 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL',
  withdrawType: 'normal',
  memo: NASTY,
  userOrder: 'wd-abc_123',
  state: 'awaitingApproval',
  initiator: 'demo-admin',
  requiredApprovals: 2,
  approvals: [{ operator: 'demo-approver', decision: 'reject', reason: NASTY, at: 1, counts: false, note: NASTY }],
  sentBy: { operator: 'carol', at: 1 },
  orderStatus: null,
  outcome: null,
  apiOrder: null,
  fee: '1',
  txid: null,
  platformMessage: NASTY,
  platformRecord: { message: NASTY, [`remark${NASTY}`]: { nested: NASTY } },
  history: [],
  lastError: `the service said: ${NASTY}`,
  createdAt: 1,
  updatedAt: 2,
  stuck: { status: 'pendingTransfer', since: 1, thresholdMs: 2, stuckForMs: 3, nextSteps: [`Check the transfer on chain: run checkTransfer on txid ${NASTY} (trx.usdt).`] },
  batch: { id: '3', fingerprint: 'ABCD-EFGH-IJKL-MNOP', line: 2 },
};

/** A bridge that answers `answers[method]` and lets the test emit events. */
function fakeBridge(answers: Partial<Record<WindowMethodName, Result<unknown>>>): { bridge: TreasuryBridge; emit: (event: ContractEvent) => void; sent: unknown[] } {
  const listeners = new Set<(event: ContractEvent) => void>();
  const sent: unknown[] = [];
  const bridge: TreasuryBridge = {
    call: <M extends WindowMethodName>(method: M, request: RequestOf<M>) => {
      sent.push(request);
      return Promise.resolve((answers[method] ?? { ok: false, error: { code: 'internal', message: 'no answer' } }) as Result<ResponseOf<M>>);
    },
    onEvent: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return { bridge, sent, emit: (event) => listeners.forEach((listener) => listener(event)) };
}

describe('displaySafeBridge', () => {
  it('escapes every string of a successful answer and keeps identifiers, numbers and nulls as they are', async () => {
    const { bridge } = fakeBridge({ 'withdrawals/get': { ok: true, value: view } });
    const result = await displaySafeBridge(bridge).call('withdrawals/get', { id: '42' });
    expectNoRawUnsafe(result);
    if (!result.ok) throw new Error('expected an answer');
    expect(result.value).toEqual({
      ...view,
      verification: { ...view.verification, problems: [SHOWN] },
      memo: SHOWN,
      approvals: [{ ...view.approvals[0], reason: SHOWN, note: SHOWN }],
      lastError: `the service said: ${SHOWN}`,
      stuck: { ...view.stuck, nextSteps: [`Check the transfer on chain: run checkTransfer on txid ${SHOWN} (trx.usdt).`] },
      // The platform's remark and every field of its record, names included: text from the network.
      platformMessage: SHOWN,
      platformRecord: { message: SHOWN, [`remark${SHOWN}`]: { nested: SHOWN } },
    });
    expect(result.value.fingerprint).toBe(view.fingerprint);
    // What the renderer sends back as identifiers is untouched.
    expect([result.value.id, result.value.userOrder, result.value.toAddress, result.value.initiator]).toEqual([view.id, view.userOrder, view.toAddress, view.initiator]);
  });

  it('escapes an error: its message, its field messages and the service reason', async () => {
    const { bridge } = fakeBridge({
      'withdrawals/get': { ok: false, error: { code: 'service', message: `refused: ${NASTY}`, serviceReason: NASTY, fields: { memo: NASTY } } },
    });
    const result = await displaySafeBridge(bridge).call('withdrawals/get', { id: '42' });
    expectNoRawUnsafe(result);
    expect(result).toEqual({ ok: false, error: { code: 'service', message: `refused: ${SHOWN}`, serviceReason: SHOWN, fields: { memo: SHOWN } } });
  });

  it('escapes event payloads (a platform message in the connection state, a sync progress line)', () => {
    const { bridge, emit } = fakeBridge({});
    const seen: ContractEvent[] = [];
    const stop = displaySafeBridge(bridge).onEvent((event) => seen.push(event));
    emit({ type: 'connection/changed', connection: { online: false, reason: 'service', message: NASTY, since: 5, lastContactAt: null } });
    emit({ type: 'sync/progress', progress: { resource: 'deposits', done: 1, total: null, message: NASTY } });
    emit({ type: 'withdrawals/changed', id: '42' });
    stop();
    emit({ type: 'balances/changed' });
    expectNoRawUnsafe(seen);
    expect(seen).toEqual([
      { type: 'connection/changed', connection: { online: false, reason: 'service', message: SHOWN, since: 5, lastContactAt: null } },
      { type: 'sync/progress', progress: { resource: 'deposits', done: 1, total: null, message: SHOWN } },
      { type: 'withdrawals/changed', id: '42' },
    ]);
  });

  it('shows every answer as single-line fields: a newline becomes ⟨U+000A⟩, U+2028, U+2029 and NEL are marked too', async () => {
    const spoof = `9\nto  TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL\u2028amount 90\u2029x\u0085y`;
    const { bridge, emit } = fakeBridge({ 'withdrawals/get': { ok: true, value: { ...view, memo: spoof, platformRecord: { [`a\nb`]: spoof } } } });
    const result = await displaySafeBridge(bridge).call('withdrawals/get', { id: '42' });
    if (!result.ok) throw new Error('expected an answer');
    const shown = '9⟨U+000A⟩to  TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL⟨U+2028⟩amount 90⟨U+2029⟩x⟨U+0085⟩y';
    expect(result.value.memo).toBe(shown);
    expect(result.value.platformRecord).toEqual({ 'a⟨U+000A⟩b': shown });
    const seen: ContractEvent[] = [];
    displaySafeBridge(bridge).onEvent((event) => seen.push(event));
    emit({ type: 'sync/progress', progress: { resource: 'deposits', done: 1, total: null, message: spoof } });
    expect(seen).toEqual([{ type: 'sync/progress', progress: { resource: 'deposits', done: 1, total: null, message: shown } }]);
  });

  it('keeps the line breaks of a block answer (a generated public key) while still marking unsafe characters', async () => {
    const pem = '-----BEGIN PUBLIC KEY-----\nMIIB\n-----END PUBLIC KEY-----\n';
    const { bridge } = fakeBridge({ 'profiles/generateKey': { ok: true, value: { publicKeyPem: pem, fingerprint: 'ab' } } });
    expect(await displaySafeBridge(bridge).call('profiles/generateKey', { name: 'main' })).toEqual({ ok: true, value: { publicKeyPem: pem, fingerprint: 'ab' } });
  });

  it('leaves ordinary text (non-Latin letters) and requests unchanged, newlines shown as marks', async () => {
    const ordinary: WithdrawalView = {
      ...view,
      verification: { ...view.verification, problems: [ORDINARY] },
      memo: ORDINARY,
      approvals: [],
      lastError: null,
      platformMessage: ORDINARY,
      platformRecord: { message: ORDINARY },
      stuck: null,
    };
    const { bridge, sent } = fakeBridge({ 'withdrawals/get': { ok: true, value: ordinary } });
    const result = await displaySafeBridge(bridge).call('withdrawals/get', { id: '42' });
    const marked = ORDINARY.replace('\n', '⟨U+000A⟩');
    expect(result).toEqual({
      ok: true,
      value: { ...ordinary, verification: { ...ordinary.verification, problems: [marked] }, memo: marked, platformMessage: marked, platformRecord: { message: marked } },
    });
    expect(sent).toEqual([{ id: '42' }]);
  });
});

describe('the directional marks', () => {
  it('refuses and names U+200F, U+200E and U+061C as input, which reorder digits and punctuation around them', async () => {
    const { unsafeTextProblem } = await import('../../../electron/contract');
    expect(unsafeTextProblem('pay 1\u200F,000', 'the memo')).toMatch(/U\+200F \(right-to-left mark\)/);
    expect(unsafeTextProblem('pay \u200E1', 'the memo')).toMatch(/U\+200E \(left-to-right mark\)/);
    expect(unsafeTextProblem('\u061C1', 'the memo')).toMatch(/U\+061C \(arabic letter mark\)/);
    expect(unsafeTextProblem('Zürich 東京 — עברית', 'the memo')).toBeNull();
  });

  it('refuses the line and paragraph separators and NEL as input, naming them', async () => {
    const { unsafeTextProblem } = await import('../../../electron/contract');
    expect(unsafeTextProblem('a\u2028b', 'the memo')).toMatch(/U\+2028 \(line separator\)/);
    expect(unsafeTextProblem('a\u2029b', 'the memo')).toMatch(/U\+2029 \(paragraph separator\)/);
    expect(unsafeTextProblem('a\u0085b', 'the memo')).toMatch(/U\+0085 \(next line\)/);
  });

  it('shows a multi-line text as a block whose every line is marked, so none of it reads as a field', async () => {
    const { blockLines, escapeSingleLine } = await import('../../../electron/contract');
    expect(escapeSingleLine('a\nb\r\nc')).toBe('a⟨U+000A⟩b⟨U+000D⟩⟨U+000A⟩c');
    expect(blockLines('too much\nto  T123\n')).toBe('  | too much\n  | to  T123\n  |\n');
  });
});
