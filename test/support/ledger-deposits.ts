// Test support: deposits credited straight through the sandbox's ledger (createAddress + simulateTransfer, what the
// admin transfer endpoint runs) on an open sandbox database, in one transaction: thousands in a fraction of a second,
// where the admin API takes a request each. Callbacks are silenced. Every third deposit is ETH, the others TRX USDT.
import { seededRandom } from '../../electron/sandbox/chain-sim';
import { createAddress, SILENT_EVENTS, simulateTransfer, type LedgerEnv } from '../../electron/sandbox/ledger';
import type { Db } from '../../electron/sandbox/store';

const addressesByDb = new WeakMap<Db, { readonly trx: string; readonly eth: string }>();

export function creditLedgerDeposits(db: Db, merchantId: string, count: number): void {
  const env: LedgerEnv = { db, nowMs: Date.now, random: seededRandom(`ledger-deposits-${merchantId}`), events: SILENT_EVENTS };
  db.transaction(() => {
    let addresses = addressesByDb.get(db);
    if (addresses === undefined) {
      const address = (type: 'trx' | 'eth_bnb'): string => {
        const result = createAddress(env, merchantId, `ledger-deposits-${type}`, type);
        if (!result.ok) throw new Error(`createAddress failed: ${result.message}`);
        return result.record.address;
      };
      addresses = { trx: address('trx'), eth: address('eth_bnb') };
      addressesByDb.set(db, addresses);
    }
    for (let i = 0; i < count; i += 1) {
      const toTrx = i % 3 !== 0;
      const result = simulateTransfer(env, { toAddress: toTrx ? addresses.trx : addresses.eth, currency: toTrx ? 'trx.usdt' : 'eth', amount: toTrx ? '25' : '0.5' });
      if (!result.ok || !result.credited) throw new Error(`transfer ${i} was not credited`);
    }
  })();
}
