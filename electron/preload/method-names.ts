// The contract's method names as a runtime-free list for the sandboxed preload, which must not load zod (the contract
// map's schemas). Kept equal to the contract by the compiler: a missing or unknown name fails `tsc`; a test checks
// it against METHOD_NAMES too.
import type { MethodName } from '../contract';

export const PRELOAD_METHOD_NAMES = [
  'session/state',
  'session/unlock',
  'session/lock',
  'profiles/list',
  'profiles/add',
  'profiles/importFile',
  'profiles/generateKey',
  'profiles/select',
  'profiles/remove',
  'demo/start',
  'selfcheck/run',
  'sync/run',
  'sync/status',
  'currencies/list',
  'balances/list',
  'deposits/list',
  'deposits/exportCsv',
  'addresses/create',
  'addresses/list',
  'addresses/qr',
  'operators/list',
  'operators/add',
  'policies/list',
  'policies/set',
  'withdrawals/preflight',
  'withdrawals/request',
  'withdrawals/approve',
  'withdrawals/reject',
  'withdrawals/cancel',
  'withdrawals/submit',
  'withdrawals/get',
  'withdrawals/list',
  'audit/list',
  'audit/verify',
  'audit/export',
  'callbacks/state',
  'callbacks/start',
  'callbacks/stop',
  'tools/checkAddress',
  'tools/checkTransfer',
  'settings/setLockTimeout',
] as const satisfies readonly MethodName[];

type AssertNever<T extends never> = T;
/** Compile-time check: every contract method is listed above (a new method without an entry fails here). */
export type EveryMethodListed = AssertNever<Exclude<MethodName, (typeof PRELOAD_METHOD_NAMES)[number]>>;
