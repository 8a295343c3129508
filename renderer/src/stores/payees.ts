// usePayeesStore: the payees of the active profile (payees/list): each with its addresses from the signed book, the
// batches waiting for an independent approval, adding one payee, importing a CSV through main's open dialog, and which
// payee a treasury-desk://payee link asked to show. The engine decides who may and what is in force; this store only
// shows and asks.
import { create } from 'zustand';
import type { Chain } from '../../../electron/chains';
import type { PayeesView } from '../../../electron/contract';
import { call, type ContractError, type Result } from '../api';
import type { ActingOperator } from './operator-prompt';
import { profileAnswer } from './profile-answer';

/** One address of a payee being added. */
export interface PayeeAddressDraft {
  readonly chain: Chain;
  readonly address: string;
}

interface PayeesStore {
  /** null until loaded, and while no profile is active or the desk is locked. */
  readonly payees: PayeesView | null;
  readonly error: ContractError | null;
  /** The payee a link asked to show (its id), or null. */
  readonly focused: string | null;
  load(): Promise<void>;
  focus(id: string | null): void;
  add(name: string, note: string, addresses: readonly PayeeAddressDraft[], as: ActingOperator): Promise<Result<PayeesView>>;
  approve(proposal: string, as: ActingOperator): Promise<Result<unknown>>;
}

export const usePayeesStore = create<PayeesStore>()((set, get) => ({
  payees: null,
  error: null,
  focused: null,
  async load() {
    const answer = profileAnswer(await call('payees/list', {}));
    set('value' in answer ? { payees: answer.value, error: answer.error } : { error: answer.error });
  },
  focus(id) {
    set({ focused: id });
  },
  async add(name, note, addresses, as) {
    const result = await call('payees/add', { name: name.trim(), ...(note.trim() === '' ? {} : { note: note.trim() }), addresses: addresses.map((entry) => ({ chain: entry.chain, address: entry.address.trim() })), as });
    if (result.ok) set({ payees: result.value });
    return result;
  },
  async approve(proposal, as) {
    const result = await call('addressbook/approve', { proposal, as });
    if (result.ok) await get().load();
    return result;
  },
}));
