// useLabelsStore: labels and notes (labels/search, labels/set as an operator) and the withdrawal address book
// (addressbook/*): what the Address book screen and the inline label edits on deposit, withdrawal and address rows show.
import { create } from 'zustand';
import type { Chain } from '../../../electron/chains';
import type { AddressBookView, LabelType, LabelView } from '../../../electron/contract';
import { call, type ContractError, type Result } from '../api';
import type { ActingOperator } from './operator-prompt';

/** The key of a label in `byRecord`: type and ref. */
export function labelKey(type: LabelType, ref: string): string {
  return `${type}\n${ref}`;
}

interface LabelsStore {
  readonly byRecord: Readonly<Record<string, LabelView>>;
  readonly book: AddressBookView | null;
  readonly error: ContractError | null;
  readonly searchText: string;
  readonly searchResults: readonly LabelView[] | null;
  load(): Promise<void>;
  search(text: string): Promise<void>;
  /** Sets a record's label and keeps its note (labels/set replaces both); `as` null: signed by the unlocked session. */
  setLabel(type: LabelType, ref: string, label: string, as: ActingOperator | null): Promise<Result<unknown>>;
  /** Sets a book entry's label and keeps its note. */
  labelBookEntry(chain: Chain, address: string, label: string, note: string | null, as: ActingOperator): Promise<Result<AddressBookView>>;
  addToBook(chain: Chain, address: string, label: string, as: ActingOperator): Promise<Result<AddressBookView>>;
  approve(proposal: string, as: ActingOperator): Promise<Result<AddressBookView>>;
  remove(chain: Chain, address: string, as: ActingOperator): Promise<Result<AddressBookView>>;
}

export const useLabelsStore = create<LabelsStore>()((set, get) => {
  const afterBookChange = (result: Result<AddressBookView>): Result<AddressBookView> => {
    if (result.ok) set({ book: result.value });
    return result;
  };
  return {
    byRecord: {},
    book: null,
    error: null,
    searchText: '',
    searchResults: null,
    async load() {
      const [labels, book] = await Promise.all([call('labels/search', { text: '' }), call('addressbook/list', {})]);
      if (labels.ok) set({ byRecord: Object.fromEntries(labels.value.map((view) => [labelKey(view.type, view.ref), view])) });
      if (book.ok) set({ book: book.value, error: null });
      else if (book.error.code !== 'locked') set({ error: book.error });
      if (get().searchText !== '') await get().search(get().searchText);
    },
    async search(text) {
      set({ searchText: text });
      if (text.trim() === '') {
        set({ searchResults: null });
        return;
      }
      const result = await call('labels/search', { text });
      if (result.ok && get().searchText === text) set({ searchResults: result.value });
    },
    async setLabel(type, ref, label, as) {
      const note = get().byRecord[labelKey(type, ref)]?.note ?? null;
      const result = await call('labels/set', { type, ref, label: label.trim(), note, ...(as === null ? {} : { as }) });
      if (result.ok) await get().load();
      return result;
    },
    async addToBook(chain, address, label, as) {
      return afterBookChange(await call('addressbook/add', { chain, address, as, ...(label.trim() === '' ? {} : { label: label.trim() }) }));
    },
    async labelBookEntry(chain, address, label, note, as) {
      return afterBookChange(await call('addressbook/label', { chain, address, label: label.trim(), note, as }));
    },
    async approve(proposal, as) {
      return afterBookChange(await call('addressbook/approve', { proposal, as }));
    },
    async remove(chain, address, as) {
      return afterBookChange(await call('addressbook/remove', { chain, address, as }));
    },
  };
});
