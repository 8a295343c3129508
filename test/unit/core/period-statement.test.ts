// The period statement's pure parts: a currency's figures from its reconciliation (withdrawals and fees apart, the
// unexplained difference recomputed to the last decimal), the printable page (everything escaped, no script or
// external resource, the audit head last, each withdrawal with its payee) and the CSV (one row kind per line, formula
// cells quoted, a withdrawal row naming its payee or none).
import { describe, expect, it } from 'vitest';
import type { CurrencyReconciliation, PeriodStatement } from '../../../electron/contract';
import { currencyStatement } from '../../../electron/core/reports/period-statement';
import { periodStatementCsv } from '../../../electron/core/reports/statement-csv';
import { htmlText, periodStatementHtml } from '../../../electron/core/reports/statement-html';

const T0 = Date.UTC(2026, 10, 1);

function reconciled(overrides: Partial<NonNullable<CurrencyReconciliation['balance']>> = {}): CurrencyReconciliation {
  return {
    currency: 'eth',
    ok: true,
    deposits: { total: { count: 0, amount: '0' }, both: { count: 0, amount: '0' }, callbackOnly: { count: 0, amount: '0' }, queryOnly: { count: 0, amount: '0' } },
    balance: {
      opening: { available: '1.000000000000000001', frozen: '0', observedAt: T0, lastObservedAt: T0 },
      closing: { available: '1.95', frozen: '0', observedAt: T0 + 3_600_000, lastObservedAt: T0 + 3_600_000 },
      startsLate: false,
      change: '0.949999999999999999',
      deposits: { count: 2, amount: '2.5' },
      withdrawals: { count: 2, amount: '2.050000000000000002' },
      returned: { count: 1, amount: '0.500000000000000001' },
      fees: { deposits: '0.01', withdrawals: '0.000000000000000002', returned: '0.000000000000000001' },
      expectedChange: '0.949999999999999999',
      unexplained: '0',
      ...overrides,
    },
    frozen: null,
    findings: [],
  };
}

describe('a currency’s statement', () => {
  it('shows the amounts sent and their fees apart, and balances to the 18th decimal', () => {
    expect(currencyStatement(reconciled())).toMatchObject({
      deposits: { count: 2, amount: '2.5' },
      depositFees: '0.01',
      withdrawals: { count: 2, amount: '2.05' },
      withdrawalFees: '0.000000000000000002',
      refunds: { count: 1, amount: '0.500000000000000001' },
      unexplained: '0',
    });
  });

  it('recomputes the unexplained difference from its own figures, whatever sign', () => {
    const more = reconciled({ closing: { available: '1.950000000000000003', frozen: '0', observedAt: T0 + 1, lastObservedAt: T0 + 1 } });
    expect(currencyStatement(more).unexplained).toBe('0.000000000000000003');
    const less = reconciled({ closing: { available: '1.9', frozen: '0', observedAt: T0 + 1, lastObservedAt: T0 + 1 } });
    expect(currencyStatement(less).unexplained).toBe('-0.05');
  });

  it('without a balance reading it has no opening, closing or difference', () => {
    expect(currencyStatement({ ...reconciled(), balance: null })).toMatchObject({ opening: null, closing: null, unexplained: null, deposits: { count: 0, amount: '0' } });
  });
});

function statement(): PeriodStatement {
  const currency = currencyStatement(reconciled());
  return {
    profile: 'main',
    merchantName: null,
    from: T0,
    to: T0 + 86_400_000,
    timeZone: 'Europe/Berlin',
    generatedAt: T0 + 86_400_000,
    currencies: [currency],
    withdrawals: [
      { request: '7', currency: 'eth', amount: '2', fee: '0.000000000000000002', toAddress: `0x${'ab'.repeat(20)}`, payee: '=Acme, "GmbH" <b>', at: T0 + 120_000, orderStatus: 'success' },
      { request: '8', currency: 'eth', amount: '0.05', fee: null, toAddress: `0x${'cd'.repeat(20)}`, payee: null, at: T0 + 180_000, orderStatus: null },
    ],
    findings: [
      {
        kind: 'unexplainedBalanceChange',
        explained: false,
        currency: 'eth',
        amount: '-0.05',
        at: T0 + 60_000,
        summary: '=HYPERLINK("x") <script>alert(1)</script> \u202Egnp.exe',
        explanation: 'Ask the platform & "check".',
        reference: null,
      },
    ],
    unexplainedFindings: 1,
    auditHead: { seq: 41, hash: 'ab'.repeat(32), fingerprint: 'ABCD-EFGH-JKMN-PQRS' },
  };
}

describe('the printable page', () => {
  it('escapes markup and shows control and text-direction characters as marks', () => {
    expect(htmlText('<b a="1">&\'\u202E</b>')).toBe('&#60;b a=&#34;1&#34;&#62;&#38;&#39;⟨U+202E⟩&#60;/b&#62;');
  });

  it('runs no script, loads nothing, holds the figures in the zone, and ends with the audit head', () => {
    const html = periodStatementHtml(statement());
    expect(html).not.toMatch(/<script|<link|<img|src=|https?:/i);
    expect(html).toContain(`content="default-src 'none'; style-src 'unsafe-inline'"`);
    expect(html).toContain('&#60;script&#62;alert(1)&#60;/script&#62;');
    expect(html).toContain('⟨U+202E⟩gnp.exe');
    expect(html).toContain('Period 2026-11-01 01:00:00+01:00 to 2026-11-02 01:00:00+01:00 (times in Europe/Berlin)');
    for (const figure of ['1.000000000000000001', '2.5', '2.05', '0.000000000000000002', '0.500000000000000001', '1.95']) expect(html).toContain(figure);
    expect(html).toContain('<h2>Withdrawals (2)</h2>');
    expect(html).toContain(`<td class="address">0x${'ab'.repeat(20)}</td><td class="text">=Acme, &#34;GmbH&#34; &#60;b&#62;</td><td class="text">success</td>`);
    expect(html).toContain(`<td class="address">0x${'cd'.repeat(20)}</td><td class="text">-</td>`);
    expect(html).toMatch(/<footer>Audit head: entry 41, fingerprint <strong>ABCD-EFGH-JKMN-PQRS<\/strong><\/footer><\/body><\/html>$/);
  });
});

describe('the printable page for an accountant (issue 22 part 2)', () => {
  const big = { request: '9', currency: 'trx.usdt', amount: '12500.5', fee: '1250', toAddress: 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL', payee: null, at: T0 + 240_000, orderStatus: 'success' };

  it("is titled with the merchant's name (escaped), the profile beneath; the profile alone before merchantInfo answered", () => {
    const named = periodStatementHtml({ ...statement(), merchantName: 'ACME <Shop>' });
    expect(named).toContain('<title>Statement ACME &#60;Shop&#62;</title>');
    expect(named).toContain('<h1>Statement of ACME &#60;Shop&#62;</h1><p>Desk profile main</p>');
    expect(periodStatementHtml(statement())).toContain('<h1>Statement of main</h1><p>Period');
  });

  it('numbers its pages, groups thousands, names assets, and says nothing in API words', () => {
    const html = periodStatementHtml({ ...statement(), withdrawals: [big] });
    expect(html).toContain('@bottom-right { content: "Page " counter(page) " of " counter(pages);');
    expect(html).toContain('<td class="amount">12,500.5</td><td class="amount">1,250</td>');
    expect(html).toContain('<td class="text">USDT on TRON<br><small>trx.usdt</small></td>');
    expect(html).not.toMatch(/merchantInfo|getDeposits|checkWithdrawOrder/);
  });
});

describe('the CSV', () => {
  it('writes the period, a balance row, each withdrawal with its payee or none, each finding (a formula quoted) and the audit head last', () => {
    const lines = periodStatementCsv(statement()).split('\r\n');
    expect(lines[0]).toBe(
      'record,currency,opening_at,opening_available,opening_frozen,deposits_count,deposits,deposit_fees,withdrawals_count,withdrawals,withdrawal_fees,refunds_count,refunds,closing_at,closing_available,closing_frozen,unexplained_difference,finding,explained,at,amount,request,to_address,payee,note',
    );
    expect(lines[1]).toMatch(/^period,,2026-11-01T01:00:00\.000\+01:00,,,,,,,,,,,2026-11-02T01:00:00\.000\+01:00,,,,,,,,,,,"?profile main; times in Europe\/Berlin/);
    expect(lines[2]).toBe(
      'balance,eth,2026-11-01T01:00:00.000+01:00,1.000000000000000001,0,2,2.5,0.01,2,2.05,0.000000000000000002,1,0.500000000000000001,2026-11-01T02:00:00.000+01:00,1.95,0,0,,,,,,,,',
    );
    expect(lines[3]).toBe(`withdrawal,eth,,,,,,,,,0.000000000000000002,,,,,,,,,2026-11-01T01:02:00.000+01:00,2,7,0x${'ab'.repeat(20)},"'=Acme, ""GmbH"" <b>",order status success`);
    expect(lines[4]).toBe(`withdrawal,eth,,,,,,,,,,,,,,,,,,2026-11-01T01:03:00.000+01:00,0.05,8,0x${'cd'.repeat(20)},,`);
    expect(lines[5]).toMatch(/^finding,eth,,,,,,,,,,,,,,,,unexplainedBalanceChange,no,2026-11-01T01:01:00\.000\+01:00,-0\.05,,,,"'=HYPERLINK\(""x""\) /);
    expect(lines[6]).toBe('audit_head,,,,,,,,,,,,,,,,,,,,,,,,"audit head 41, fingerprint ABCD-EFGH-JKMN-PQRS"');
    expect(lines[7]).toBe('');
  });
});
