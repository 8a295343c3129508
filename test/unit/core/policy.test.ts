// Withdrawal policy: approvals per amount threshold, the daily limit, exact decimals.
import { describe, expect, it } from 'vitest';
import { Money } from '../../../electron/chains';
import {
  checkDailyLimit,
  DEFAULT_WITHDRAWAL_POLICY,
  policyProblems,
  requiredApprovals,
  type WithdrawalPolicy,
} from '../../../electron/core/withdrawals/policy';

const tiered: WithdrawalPolicy = {
  thresholds: [
    { above: '0', approvals: 1 },
    { above: '10000', approvals: 2 },
    { above: '100000', approvals: 3 },
  ],
  dailyLimit: '250000',
  useFinancialConfirmation: false,
};

describe('requiredApprovals', () => {
  it('needs one approval for any amount by default', () => {
    expect(requiredApprovals(DEFAULT_WITHDRAWAL_POLICY, new Money('0.000001'))).toBe(1);
    expect(requiredApprovals(DEFAULT_WITHDRAWAL_POLICY, new Money('99999999'))).toBe(1);
  });
  it('uses the highest threshold strictly exceeded', () => {
    expect(requiredApprovals(tiered, new Money('10000'))).toBe(1);
    expect(requiredApprovals(tiered, new Money('10000.000001'))).toBe(2);
    expect(requiredApprovals(tiered, new Money('100000.5'))).toBe(3);
  });
  it('never requires fewer than one approval', () => {
    expect(requiredApprovals({ ...tiered, thresholds: [] }, new Money('5'))).toBe(1);
  });
});

describe('checkDailyLimit', () => {
  it('allows up to the limit exactly', () => {
    const check = checkDailyLimit(tiered, new Money('200000'), new Money('50000'));
    expect(check.ok).toBe(true);
    if (check.ok) expect(check.remainingAfter?.toFixed()).toBe('0');
  });
  it('refuses the smallest excess and says how much remains', () => {
    const check = checkDailyLimit(tiered, new Money('200000'), new Money('50000.000001'));
    expect(check.ok).toBe(false);
    if (!check.ok) {
      expect(check.remaining.toFixed()).toBe('50000');
      expect(check.reason).toContain('at most 50000 remains');
    }
  });
  it('has no limit when none is set', () => {
    expect(checkDailyLimit(DEFAULT_WITHDRAWAL_POLICY, new Money('1e12'), new Money('1')).ok).toBe(true);
  });
});

describe('policyProblems', () => {
  it('accepts a sane policy', () => expect(policyProblems(tiered)).toEqual([]));
  it('names each problem', () => {
    const problems = policyProblems({ thresholds: [{ above: '-5', approvals: 0 }], dailyLimit: 'lots', useFinancialConfirmation: false });
    expect(problems).toHaveLength(3);
  });
});
