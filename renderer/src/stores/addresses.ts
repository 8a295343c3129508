// useAddressesStore: deposit addresses (addresses/list, addresses/create as an operator) and their QR codes
// (addresses/qr: a PNG data URL made by the engine, cached per address).
import { create } from 'zustand';
import type { AddressType } from '../../../electron/chains';
import type { DepositAddressView, QrCodeView } from '../../../electron/contract';
import { call, type ContractError, type Result } from '../api';
import type { ActingOperator } from './operator-prompt';

interface AddressesStore {
  readonly addresses: readonly DepositAddressView[];
  readonly loaded: boolean;
  readonly error: ContractError | null;
  readonly selected: string | null;
  readonly qr: Readonly<Record<string, QrCodeView>>;
  readonly qrErrors: Readonly<Record<string, ContractError>>;
  load(): Promise<void>;
  create(addressType: AddressType, userOrder: string, as: ActingOperator): Promise<Result<DepositAddressView>>;
  select(address: string | null): void;
  loadQr(address: string): Promise<void>;
}

export const useAddressesStore = create<AddressesStore>()((set, get) => ({
  addresses: [],
  loaded: false,
  error: null,
  selected: null,
  qr: {},
  qrErrors: {},
  async load() {
    const result = await call('addresses/list', {});
    if (result.ok) set({ addresses: result.value, loaded: true, error: null });
    else if (result.error.code !== 'locked') set({ loaded: true, error: result.error });
  },
  async create(addressType, userOrder, as) {
    const trimmed = userOrder.trim();
    const result = await call('addresses/create', { addressType, as, ...(trimmed === '' ? {} : { userOrder: trimmed }) });
    if (result.ok) {
      await get().load();
      set({ selected: result.value.address });
      void get().loadQr(result.value.address);
    }
    return result;
  },
  select(address) {
    set({ selected: address });
    if (address !== null && get().qr[address] === undefined) void get().loadQr(address);
  },
  async loadQr(address) {
    const result = await call('addresses/qr', { address, format: 'png' });
    if (result.ok) set({ qr: { ...get().qr, [address]: result.value } });
    else set({ qrErrors: { ...get().qrErrors, [address]: result.error } });
  },
}));
