// Address validation per chain (PROTOCOL §11) with reasons a person understands: chain-independent checks first
// (empty, white space), then the chain's rule, and on failure a look at whether the text belongs to another chain.
import { CHAINS, CHAIN_INFO, CURRENCIES, type Chain, type CurrencySymbol } from '../currencies';
import { checkEvm } from './evm';
import { checkSolana } from './solana';
import { checkTon, parseTonAddress } from './ton';
import { checkTron } from './tron';
import type { AddressCheck, AddressProblem, RuleVerdict } from './types';
import { withArticle } from './text';

const RULES: Readonly<Record<Chain, (text: string) => RuleVerdict>> = {
  trx: checkTron,
  eth: (text) => checkEvm(text, 'eth'),
  bnb: (text) => checkEvm(text, 'bnb'),
  solana: checkSolana,
  ton: checkTon,
};

function invalid(chain: Chain, code: AddressProblem, reason: string): AddressCheck {
  return { valid: false, chain, code, reason };
}

/** Validates `address` exactly as given (no trimming) against one chain's rules. Never throws. */
export function validateAddress(chain: Chain, address: string): AddressCheck {
  const name = CHAIN_INFO[chain].displayName;
  if (address.length === 0) return invalid(chain, 'empty', 'no address given');
  const trimmed = address.trim();
  if (trimmed.length === 0) return invalid(chain, 'empty', 'the address is blank: only spaces or line breaks');
  if (trimmed !== address) {
    const withoutSpaces = RULES[chain](trimmed);
    return invalid(
      chain,
      'whitespace',
      withoutSpaces.ok
        ? `has spaces at the start or end (without them it is a valid ${name} address)`
        : 'has spaces at the start or end',
    );
  }
  if (/\s/u.test(address)) return invalid(chain, 'whitespace', 'contains spaces or line breaks inside the address');
  const verdict = RULES[chain](address);
  if (verdict.ok) return { valid: true, chain, normalized: verdict.normalized, form: verdict.form, notes: verdict.notes };
  const foreign = describeForeignAddress(chain, address);
  if (foreign !== null) return invalid(chain, 'otherChain', `this is ${foreign}, not ${withArticle(name)} one`);
  return invalid(chain, verdict.code, verdict.reason);
}

/** Validates an address for a withdrawal or deposit currency: `eth.usdt` uses the Ethereum rules, and so on. */
export function validateForCurrency(symbol: CurrencySymbol, address: string): AddressCheck {
  return validateAddress(CURRENCIES[symbol].chain, address);
}

/** The chains whose rules this exact text satisfies (eth and bnb always together), in CHAINS order. */
export function detectChains(address: string): Chain[] {
  if (address.length === 0 || address.trim() !== address) return [];
  return CHAINS.filter((chain) => RULES[chain](address).ok);
}

/** "a TRON address", "an Ethereum or BNB Smart Chain address", "a TON testnet address", or null when unrecognised. */
function describeForeignAddress(chain: Chain, address: string): string | null {
  const others = detectChains(address).filter((other) => other !== chain);
  if (others.length > 0) {
    const names = others.map((other) => CHAIN_INFO[other].displayName);
    return `${withArticle(names.join(' or '))} address`;
  }
  if (chain !== 'ton') {
    const ton = parseTonAddress(address);
    if (ton.ok && ton.form === 'userFriendly' && ton.flags.testnetOnly) return 'a TON testnet address';
  }
  return null;
}
