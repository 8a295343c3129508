// The approver's items in words (contract/approver-view): grouped amounts, where the fee comes from, the tier and why,
// who is still needed, the destination's standing (the poisoning radar's flag too), and what is marked to look at twice.
import { describe, expect, it } from 'vitest';
import { groupAmount, REVIEW_ITEMS, reviewLines, reviewWarning, type ApproverView } from '../../../electron/contract';

const BASE: ApproverView = {
  id: '7',
  fingerprint: 'ABCD-EFGH-JKLM-NPQR',
  signed: true,
  altered: [],
  problems: [],
  initiator: 'carol',
  currency: 'trx.usdt',
  currencyName: 'USDT on TRON',
  chainName: 'TRON',
  amount: '1250.5',
  fee: '1.5',
  feeSource: 'signedAtRequest',
  feeNow: null,
  totalDebited: '1252',
  withdrawType: 'normal',
  memo: 'rent',
  remark: 'TD ABCD-EFGH-JKLM-NPQR rent',
  destination: { address: 'TXYZ', inBook: true, bookSince: 0, label: 'landlord', isNew: false, lookAlikes: [], timesPaid: 3, history: [{ currency: 'trx.usdt', timesPaid: 3, lastPaidAt: 0, median: '1200', largest: '2500.5' }] },
  rule: { policy: 'abcdef0123456789', tierAbove: '1000', tierApprovals: 2, intentApprovals: 2, dailyLimit: '50000', onlyFromBook: true, newDestinationWaitHours: 24 },
  approvals: { required: 2, counted: 1, stillNeeded: 1, given: [{ operator: 'bob', at: 0, counts: true, note: null }] },
  requestedAt: 0,
  ageMs: 2 * 3_600_000 + 5 * 60_000,
  holdsNow: [],
};

const EN = { locale: 'en-US', time: (ms: number) => new Date(ms).toISOString() } as const;

function lines(view: ApproverView): Record<string, { value: string; warn: boolean }> {
  return Object.fromEntries(reviewLines(view, EN).map((line) => [line.item, { value: line.value, warn: line.warn }]));
}

describe('reviewLines', () => {
  it('says every item in order, amounts grouped, nothing marked when all is in order', () => {
    const shown = lines(BASE);
    expect(reviewLines(BASE, EN).map((line) => line.item)).toEqual([...REVIEW_ITEMS]);
    expect(shown['amount']?.value).toBe('1,250.5 trx.usdt');
    expect(shown['fee']?.value).toBe('1.5 trx.usdt (as preflight computed it, signed by the initiator)');
    expect(shown['total']?.value).toBe('1,252 trx.usdt');
    expect(shown['rule']?.value).toBe(
      'the USDT on TRON policy abcdef012345: 1,250.5 is above 1,000: that tier needs 2 approvals; daily limit 50,000; only addresses from the book; a new destination waits 24 h',
    );
    expect(shown['standing']?.value).toBe('in the address book since 1970-01-01T00:00:00.000Z; labelled "landlord"; paid 3 times before from this desk; control not proven');
    expect(shown['history']?.value).toBe('trx.usdt: paid 3 times, last 1970-01-01T00:00:00.000Z, median 1,200, largest 2,500.5');
    expect(lines({ ...BASE, destination: { ...BASE.destination, history: [] } })['history']).toEqual({ value: 'never paid before from this desk', warn: true });
    expect(shown['given']?.value).toBe('bob at 1970-01-01T00:00:00.000Z');
    expect(shown['needed']?.value).toBe('1 more, from operators independent of the initiator and of each other (1 of 2 given)');
    expect(shown['age']?.value).toBe('2 h 5 min ago, at 1970-01-01T00:00:00.000Z, by carol');
    expect(reviewLines(BASE, EN).filter((line) => line.warn).map((line) => line.item)).toEqual(['needed']);
    expect(reviewWarning(BASE)).toBeNull();
  });

  it('marks a fee that is not the signed one, a new look-alike destination, and an approval that does not count', () => {
    const shown = lines({
      ...BASE,
      feeSource: 'currencyListNow',
      destination: { ...BASE.destination, inBook: false, label: null, isNew: true, timesPaid: 0, lookAlikes: [{ address: 'TXYQ', label: 'landlord', differingPositions: [3] }] },
      approvals: { required: 1, counted: 0, stillNeeded: 1, given: [{ operator: 'alice', at: 0, counts: false, note: "counts as carol's party" }] },
      rule: { ...BASE.rule, tierAbove: null, tierApprovals: 1, intentApprovals: 1, dailyLimit: null, onlyFromBook: false, newDestinationWaitHours: 0, policy: 'default' },
    });
    expect(shown['fee']).toEqual({ value: '1.5 trx.usdt (from the currency list now; the request predates signed fees)', warn: true });
    expect(shown['standing']).toEqual({ value: 'not in the address book; no label; NEW: never paid from this desk; control not proven; LOOK-ALIKE of TXYQ ("landlord"), differing at positions 4', warn: true });
    expect(shown['given']?.value).toBe("alice at 1970-01-01T00:00:00.000Z (does not count: counts as carol's party)");
    expect(shown['rule']?.value).toBe('the default USDT on TRON policy (none was ever set): no amount tier applies to 1,250.5, so 1 approval');
  });

  it("adds the poisoning radar's flag to the standing, marked even for a book-like destination paid before, with who cleared it", () => {
    const flag = { looksLike: 'trx:TXYZ', similarity: 'the same first 4 and last 4 characters' };
    const blocked = lines({ ...BASE, destination: { ...BASE.destination, poisoning: { ...flag, clearedBy: null } } });
    expect(blocked['standing']).toEqual({
      value:
        'in the address book since 1970-01-01T00:00:00.000Z; labelled "landlord"; paid 3 times before from this desk; control not proven; ' +
        'flagged by the poisoning radar: looks like trx:TXYZ (the same first 4 and last 4 characters), not cleared: paying it is refused until two admins clear it (treasury-desk radar clear)',
      warn: true,
    });
    const cleared = lines({ ...BASE, destination: { ...BASE.destination, poisoning: { ...flag, clearedBy: ['alice', 'frank'] } } });
    expect(cleared['standing']?.value).toMatch(/; flagged by the poisoning radar: looks like trx:TXYZ \(the same first 4 and last 4 characters\), cleared by alice and frank$/);
    expect(cleared['standing']?.warn).toBe(true);
    expect(lines({ ...BASE, destination: { ...BASE.destination, poisoning: null } })['standing']).toEqual(lines(BASE)['standing']);
  });

  it('says whether control of the destination is proven, by which deposit and when, and the policy option in the rule', () => {
    const proven = lines({ ...BASE, destination: { ...BASE.destination, control: { proven: true, at: 0, txid: 'ab12' } }, rule: { ...BASE.rule, provenControlAbove: '5000' } });
    expect(proven['standing']?.value).toBe('in the address book since 1970-01-01T00:00:00.000Z; labelled "landlord"; paid 3 times before from this desk; control proven on 1970-01-01T00:00:00.000Z by deposit ab12');
    expect(proven['rule']?.value).toMatch(/; above 5,000 only addresses whose control is proven$/);
    expect(lines({ ...BASE, destination: { ...BASE.destination, control: { proven: false, at: null, txid: null } } })['standing']).toEqual(lines(BASE)['standing']);
  });

  it('says what would hold it if sent now, marked, and that nothing would when the rules allow it', () => {
    expect(lines(BASE)['heldNow']).toEqual({ value: 'no other rule in force now would hold it', warn: false });
    const held = lines({ ...BASE, holdsNow: ['sending is frozen by alice (drill)', 'the daily limit is 30'] });
    expect(held['heldNow']).toEqual({ value: 'HELD by the rules in force now: sending is frozen by alice (drill); the daily limit is 30', warn: true });
  });

  it('shows a fee the currency list now gives differently, and an unknown fee as such', () => {
    expect(lines({ ...BASE, feeNow: '2' })['fee']).toEqual({ value: '1.5 trx.usdt (as preflight computed it, signed by the initiator); the currency list now says 2 trx.usdt', warn: true });
    expect(lines({ ...BASE, fee: null, feeSource: 'unknown', totalDebited: null })['total']).toEqual({ value: 'not known', warn: true });
  });

  it('warns first when the row was altered or no intent verifies', () => {
    expect(reviewWarning({ ...BASE, altered: ['amount', 'toAddress'] })).toBe('The request row was altered after it was made (amount, toAddress): shown here is what carol signed.');
    expect(lines({ ...BASE, altered: ['amount'] })['amount']?.warn).toBe(true);
    expect(reviewWarning({ ...BASE, signed: false, fingerprint: null })).toMatch(/^No signed intent verifies for this request/);
    expect(lines({ ...BASE, signed: false, fingerprint: null })['fingerprint']).toEqual({ value: 'none: no signed intent verifies', warn: true });
  });

  it('groups amounts without ever rounding them', () => {
    expect(groupAmount('1234567.000000000000000001', 'en-US')).toBe('1,234,567.000000000000000001');
    expect(groupAmount('1250.5', 'de-DE')).toBe('1.250,5');
    expect(groupAmount('not a number', 'en-US')).toBe('not a number');
  });
});
