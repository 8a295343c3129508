// A demo desk's first day, lived through the contract: after the demo's first sync the demo operators create deposit
// addresses (labelled) and request withdrawals that the independent demo approver approves and sends, each through
// the same handlers a person's click or command calls (roles, passphrases, signed statements, audit rows), never a
// shortcut. Done once per demo desk (the `demo/furnished` audit row marks it); the desk's own times stay real.
import type { AddressType, CurrencySymbol } from '../../chains';
import { callMethod, DEMO_OPERATORS, type MethodName, type ResponseOf, type TreasuryHandlers } from '../../contract';
import type { Kernel } from '../kernel/kernel';
import { type AuditRecorder, auditRowsOfAction } from '../audit';
import { DeskError } from '../kernel/errors';
import { DEMO_PROFILE_NAME } from './profiles';

/** The audit action that records a furnished demo desk (and keeps it from being furnished twice). */
export const DEMO_FURNISHED_ACTION = 'demo/furnished';

/** The deposit addresses a demo desk creates: fixed userOrders, so a repeated creation answers the same address. */
export const DEMO_DESK_ADDRESSES: ReadonlyArray<{ readonly addressType: AddressType; readonly userOrder: string; readonly label: string }> = [
  { addressType: 'trx', userOrder: 'DEMO-SHOP-TRON', label: 'Web shop checkout (TRON)' },
  { addressType: 'eth_bnb', userOrder: 'DEMO-B2B-EVM', label: 'Wholesale invoices (Ethereum, BNB)' },
  { addressType: 'ton', userOrder: 'DEMO-EVENTS-TON', label: 'Event tickets (TON)' },
];

/** The withdrawals a demo desk requests, approves and sends; the destinations are fixed, valid demo addresses. */
export const DEMO_DESK_WITHDRAWALS: ReadonlyArray<{ readonly currency: CurrencySymbol; readonly amount: string; readonly toAddress: string; readonly memo: string }> = [
  { currency: 'trx.usdt', amount: '1250', toAddress: 'TY1fg8GEMc3w8ewn6tR52Mu1QZ6AMfDn62', memo: 'Supplier invoice 4471 (packaging)' },
  { currency: 'eth.usdt', amount: '480.25', toAddress: '0xfb97270fa5ecb14249Cd0c81bd20F7feba78321D', memo: 'Freelance design, October' },
  { currency: 'ton', amount: '35', toAddress: 'UQCmAaKHCpXWJZEND7g-cKOD5wWJehC12IBLDXKtj_BotvHf', memo: 'Event venue deposit' },
];

/** Whether this desk's demo profile was furnished already (its audit log has the mark). */
export function demoDeskFurnished(context: Kernel): boolean {
  return auditRowsOfAction(context.db, DEMO_FURNISHED_ACTION).some((row) => row.profile === DEMO_PROFILE_NAME);
}

/**
 * Furnishes the active demo profile once: addresses with labels, then (unless the desk already has withdrawal requests,
 * e.g. a person's own) the withdrawals, requested by the demo admin, approved and sent by the demo approver. Throws the
 * first refusal (the caller logs it; the mark is written only when everything went through, so a later start retries).
 */
export async function furnishDemoDesk(context: Kernel & AuditRecorder, handlers: TreasuryHandlers): Promise<void> {
  if (demoDeskFurnished(context)) return;
  const call = contractCaller(handlers);
  const [admin, , approver] = DEMO_OPERATORS;
  const asAdmin = { operator: admin.name, passphrase: admin.passphrase };
  const asApprover = { operator: approver.name, passphrase: approver.passphrase };
  for (const planned of DEMO_DESK_ADDRESSES) {
    const created = await call('addresses/create', { addressType: planned.addressType, userOrder: planned.userOrder, as: asAdmin });
    await call('labels/set', { type: 'addr', ref: created.address, label: planned.label, as: asAdmin });
  }
  const sent: string[] = [];
  if ((await call('withdrawals/list', { limit: 1 })).rows.length === 0) {
    for (const planned of DEMO_DESK_WITHDRAWALS) {
      const { withdrawal } = await call('withdrawals/request', { ...planned, as: asAdmin });
      await call('withdrawals/approve', { id: withdrawal.id, as: asApprover });
      await call('withdrawals/submit', { id: withdrawal.id, as: asApprover });
      sent.push(withdrawal.userOrder);
    }
  }
  context.audit({
    profile: DEMO_PROFILE_NAME,
    action: DEMO_FURNISHED_ACTION,
    details: { addresses: DEMO_DESK_ADDRESSES.map((planned) => planned.userOrder), withdrawals: sent },
  });
}

/** Calls a contract method as a face does (callMethod), the handler's refusal thrown as a DeskError. */
function contractCaller(handlers: TreasuryHandlers) {
  return async <M extends MethodName>(method: M, request: unknown): Promise<ResponseOf<M>> => {
    const result = await callMethod(handlers, method, request);
    if (!result.ok) throw new DeskError(result.error.code, `demo desk: ${method}: ${result.error.message}`);
    return result.value;
  };
}
