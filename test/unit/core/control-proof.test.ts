// The proof of control's pure parts (withdrawals/control-proof.ts): the userOrder derived from the request stays within
// PROTOCOL §8's limits and is the same for the same request (an EVM address in any letter case is one), and differs by
// profile, address and round; the per-chain table says why for every chain, and only TON cannot prove it.
import { describe, expect, it } from 'vitest';
import { CHAINS, toEip55 } from '../../../electron/chains';
import { CONTROL_PROOF_BY_CHAIN, proofSubject, proofUserOrder } from '../../../electron/core/withdrawals/control-proof';

const evm = '0x52908400098527886e0f7030069857d2e4169ee7';

describe('proof of control', () => {
  it('derives a userOrder of 1 to 64 of [A-Za-z0-9_-], the same for a retry, another for another profile, address or round', () => {
    const order = proofUserOrder('main', 'eth', evm, 1);
    expect(order).toMatch(/^proof-[0-9a-f]{40}$/);
    expect(order.length).toBeLessThanOrEqual(64);
    expect(proofUserOrder('main', 'eth', evm, 1)).toBe(order);
    expect(proofUserOrder('main', 'eth', toEip55(evm.slice(2)), 1)).toBe(order);
    expect(proofSubject('eth', toEip55(evm.slice(2)))).toBe(`eth:${evm}`);
    expect(new Set([order, proofUserOrder('other', 'eth', evm, 1), proofUserOrder('main', 'bnb', evm, 1), proofUserOrder('main', 'eth', evm, 2)]).size).toBe(4);
  });

  it('says for every chain whether its deposit record proves control, and why; only TON cannot', () => {
    for (const chain of CHAINS) expect(CONTROL_PROOF_BY_CHAIN[chain].why.length).toBeGreaterThan(40);
    expect(CHAINS.filter((chain) => !CONTROL_PROOF_BY_CHAIN[chain].proves)).toEqual(['ton']);
    expect(CHAINS.flatMap((chain) => { const entry = CONTROL_PROOF_BY_CHAIN[chain]; return entry.proves ? [entry.currency] : []; })).toEqual(['trx', 'eth', 'bnb', 'solana']);
  });
});
