// useMerchantStore: the merchant account as merchantInfo last answered (merchant/info, read from the desk's cache):
// the platform's name for the merchant, the API version, the withdrawal types it allows and whether a messenger is bound
// to the merchant's auditor (financialConfirmation needs one), plus the fields the spec does not name.
import { create } from 'zustand';
import type { MerchantInfoView } from '../../../electron/contract';
import { call, type ContractError } from '../api';

interface MerchantStore {
  /** Null until merchantInfo answered for this profile (a sync or a selfcheck asks it). */
  readonly merchant: MerchantInfoView | null;
  readonly loaded: boolean;
  readonly error: ContractError | null;
  load(): Promise<void>;
}

export const useMerchantStore = create<MerchantStore>()((set) => ({
  merchant: null,
  loaded: false,
  error: null,
  async load() {
    const result = await call('merchant/info', {});
    if (result.ok) set({ merchant: result.value.merchant, loaded: true, error: null });
    else if (result.error.code !== 'locked') set({ loaded: true, error: result.error });
  },
}));
