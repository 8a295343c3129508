// Explorer links: one per chain and target, built only from values that pass the chain's rules.
import { describe, expect, it } from 'vitest';
import { CHAINS, EXPLORERS, explorerLink } from '../../../electron/chains';

describe('explorerLink', () => {
  it('links addresses and transactions on every chain to an https explorer page', () => {
    const samples = {
      trx: { address: 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL', transaction: 'f'.repeat(64) },
      eth: { address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', transaction: `0x${'1'.repeat(64)}` },
      bnb: { address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', transaction: `0x${'2'.repeat(64)}` },
      solana: { address: '4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T', transaction: '5'.repeat(87) },
      ton: { address: 'EQBvW8Z5huBkMJYdnfAEM5JqTNkuWX3diqYENkWsIL0XggGG', transaction: 'c'.repeat(64) },
    } as const;
    for (const chain of CHAINS) {
      for (const target of ['address', 'transaction'] as const) {
        const link = explorerLink(chain, target, samples[chain][target]);
        if (!link.ok) throw new Error(`${chain} ${target}: ${link.reason}`);
        expect(link.url.startsWith('https://')).toBe(true);
        expect(link.url).toContain(samples[chain][target]);
        expect(link.explorer).toBe(EXPLORERS[chain].name);
      }
    }
  });

  it('refuses anything that is not an address or a transaction id of that chain', () => {
    expect(explorerLink('trx', 'address', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed').ok).toBe(false);
    expect(explorerLink('eth', 'transaction', 'f'.repeat(64)).ok).toBe(false);
    expect(explorerLink('trx', 'transaction', `${'f'.repeat(64)}#x`).ok).toBe(false);
    expect(explorerLink('solana', 'transaction', 'javascript:alert(1)').ok).toBe(false);
    expect(explorerLink('ton', 'address', 'https://evil.example').ok).toBe(false);
  });
});
