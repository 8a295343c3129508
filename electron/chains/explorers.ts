// Block explorer links for addresses and transactions per chain: a fixed table of public explorers, and the one
// function that builds a link from checked parts. Invariant: a link is only ever built here, from a chain in the table
// and a value that passed the chain's address rules or transaction-id pattern, so no caller can make the desk open an
// arbitrary URL.
import { validateAddress } from './address';
import type { Chain } from './currencies';

export const EXPLORER_TARGETS = ['address', 'transaction'] as const;
export type ExplorerTarget = (typeof EXPLORER_TARGETS)[number];

interface Explorer {
  readonly name: string;
  /** Hosts whose https links the app may open for this chain (main's allow-list, electron/main/security.ts). */
  readonly hosts: readonly string[];
  readonly address: (value: string) => string;
  readonly transaction: (value: string) => string;
  /** A transaction id as the chain writes it. */
  readonly transactionId: RegExp;
}

const HEX_64 = /^[0-9a-fA-F]{64}$/;
const EVM_TX = /^0x[0-9a-fA-F]{64}$/;

export const EXPLORERS: Readonly<Record<Chain, Explorer>> = Object.freeze({
  trx: {
    name: 'Tronscan',
    hosts: ['tronscan.org'],
    address: (value) => `https://tronscan.org/#/address/${value}`,
    transaction: (value) => `https://tronscan.org/#/transaction/${value}`,
    transactionId: HEX_64,
  },
  eth: {
    name: 'Etherscan',
    hosts: ['etherscan.io'],
    address: (value) => `https://etherscan.io/address/${value}`,
    transaction: (value) => `https://etherscan.io/tx/${value}`,
    transactionId: EVM_TX,
  },
  bnb: {
    name: 'BscScan',
    hosts: ['bscscan.com'],
    address: (value) => `https://bscscan.com/address/${value}`,
    transaction: (value) => `https://bscscan.com/tx/${value}`,
    transactionId: EVM_TX,
  },
  solana: {
    name: 'Solscan',
    hosts: ['solscan.io', 'explorer.solana.com'],
    address: (value) => `https://solscan.io/account/${value}`,
    transaction: (value) => `https://solscan.io/tx/${value}`,
    // A signature: 64 bytes in base58, 86 to 88 characters.
    transactionId: /^[1-9A-HJ-NP-Za-km-z]{64,88}$/,
  },
  ton: {
    name: 'Tonviewer',
    hosts: ['tonviewer.com', 'tonscan.org'],
    address: (value) => `https://tonviewer.com/${encodeURIComponent(value)}`,
    transaction: (value) => `https://tonviewer.com/transaction/${value}`,
    // A transaction hash in hex, or base64url as some wallets show it.
    transactionId: /^(?:[0-9a-fA-F]{64}|[A-Za-z0-9_-]{43}=?)$/,
  },
});

export type ExplorerLink = { readonly ok: true; readonly url: string; readonly explorer: string } | { readonly ok: false; readonly reason: string };

/** The explorer page for an address or a transaction on `chain`, or why the value is not one. */
export function explorerLink(chain: Chain, target: ExplorerTarget, value: string): ExplorerLink {
  const explorer = EXPLORERS[chain];
  if (target === 'address') {
    const check = validateAddress(chain, value);
    if (!check.valid) return { ok: false, reason: `not a ${chain} address: ${check.reason}` };
    return { ok: true, url: explorer.address(value), explorer: explorer.name };
  }
  if (!explorer.transactionId.test(value)) return { ok: false, reason: `not a ${chain} transaction id` };
  return { ok: true, url: explorer.transaction(value), explorer: explorer.name };
}
