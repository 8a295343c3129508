// useWithdrawalsStore: withdrawal requests (withdrawals/list pages, optionally by label), the approvals queue (single
// requests and each batch payout once: withdrawals/queue), the orders stuck now (the watchdog's flag), one order's
// detail with its status timeline, which tab the Withdrawals screen shows (and a batch to open in Batch payouts), and
// the actions: request, approve, reject, cancel, submit (each privileged one as an operator).
import { create } from 'zustand';
import { isCurrencySymbol } from '../../../electron/chains';
import type { PayoutBatchQueueEntry, WithdrawalPreflight, WithdrawalView } from '../../../electron/contract';
import { decisionsOpen } from '../../../electron/contract/withdrawal-lifecycle';
import { call, type ContractError, type Result } from '../api';
import { t } from '../i18n';
import type { ActingOperator } from './operator-prompt';

const PAGE_SIZE = 100;

/** The Withdrawals screen's tabs. */
export type WithdrawalsTab = 'queue' | 'request' | 'orders' | 'batches';

export interface WithdrawalDraft {
  /** One of the 13, or a currency the service added later (the preflight then says why it cannot be withdrawn). */
  readonly currency: string;
  readonly amount: string;
  readonly toAddress: string;
  readonly withdrawType: 'normal' | 'financialConfirmation';
  readonly memo: string;
}

interface WithdrawalsStore {
  readonly orders: readonly WithdrawalView[];
  readonly nextCursor: string | null;
  readonly loaded: boolean;
  readonly loading: boolean;
  readonly error: ContractError | null;
  /** Single requests someone still has to act on before they reach the service (never a batch's lines). */
  readonly queue: readonly WithdrawalView[];
  /** Batch payouts with lines someone still has to act on, each once. */
  readonly queueBatches: readonly PayoutBatchQueueEntry[];
  readonly tab: WithdrawalsTab;
  /** A batch Batch payouts opens when it shows (set by openBatch, taken by the tab). */
  readonly batchToOpen: string | null;
  showTab(tab: WithdrawalsTab): void;
  /** Shows the batch in Withdrawals → Batch payouts. */
  openBatch(id: string): void;
  /** The batch to open, once: the Batch payouts tab takes it. */
  takeBatchToOpen(): string | null;
  /** Orders pending past their status's threshold now, each with what to do next. */
  readonly stuck: readonly WithdrawalView[];
  readonly selectedId: string | null;
  readonly detail: WithdrawalView | null;
  /** The orders list shows only requests whose label or note contains this ('' : all). */
  readonly labelFilter: string;
  setLabelFilter(text: string): Promise<void>;
  load(): Promise<void>;
  loadMore(): Promise<void>;
  loadQueue(): Promise<void>;
  loadStuck(): Promise<void>;
  refreshAll(changedId?: string | null): Promise<void>;
  select(id: string | null): Promise<void>;
  preflight(draft: WithdrawalDraft): Promise<Result<WithdrawalPreflight>>;
  request(draft: WithdrawalDraft, as: ActingOperator): Promise<Result<{ readonly withdrawal: WithdrawalView; readonly preflight: WithdrawalPreflight }>>;
  approve(id: string, as: ActingOperator): Promise<Result<WithdrawalView>>;
  reject(id: string, reason: string, as: ActingOperator): Promise<Result<WithdrawalView>>;
  cancel(id: string, reason: string, as: ActingOperator): Promise<Result<WithdrawalView>>;
  /** Sending is a decision too: a named operator with the submit permission, passphrase-checked. */
  submit(id: string, as: ActingOperator): Promise<Result<WithdrawalView>>;
  /** The order last sent from the queue (it leaves the queue: the queue confirms it until dismissed). */
  readonly lastSent: WithdrawalView | null;
  dismissLastSent(): void;
}

/** How many approvals the queue waits for: each single request open to approval, and each batch awaiting approval once. */
export function awaitingApprovalCount(state: Pick<WithdrawalsStore, 'queue' | 'queueBatches'>): number {
  return state.queue.filter((order) => decisionsOpen(order.state).approve).length + state.queueBatches.filter((batch) => batch.state === 'awaitingApproval').length;
}

export const useWithdrawalsStore = create<WithdrawalsStore>()((set, get) => {
  /** Puts a fresh copy of one order everywhere it is shown. */
  function replace(view: WithdrawalView): void {
    const orders = get().orders.some((order) => order.id === view.id)
      ? get().orders.map((order) => (order.id === view.id ? view : order))
      : [view, ...get().orders];
    set({ orders, detail: get().selectedId === view.id ? view : get().detail });
  }
  /** The label filter of a withdrawals/list request, when there is one. */
  function labelled(): { label?: string } {
    const label = get().labelFilter.trim();
    return label === '' ? {} : { label };
  }
  async function after(result: Result<WithdrawalView>): Promise<Result<WithdrawalView>> {
    if (result.ok) {
      replace(result.value);
      await get().loadQueue();
    }
    return result;
  }
  return {
    orders: [],
    nextCursor: null,
    loaded: false,
    loading: false,
    error: null,
    queue: [],
    queueBatches: [],
    tab: 'queue',
    batchToOpen: null,
    showTab(tab) {
      set({ tab });
    },
    openBatch(id) {
      set({ tab: 'batches', batchToOpen: id });
    },
    takeBatchToOpen() {
      const id = get().batchToOpen;
      if (id !== null) set({ batchToOpen: null });
      return id;
    },
    stuck: [],
    lastSent: null,
    dismissLastSent() {
      set({ lastSent: null });
    },
    selectedId: null,
    detail: null,
    labelFilter: '',
    async setLabelFilter(text) {
      set({ labelFilter: text, orders: [], nextCursor: null });
      await get().load();
    },
    async load() {
      set({ loading: true });
      const label = get().labelFilter;
      const result = await call('withdrawals/list', { limit: PAGE_SIZE, ...labelled() });
      if (get().labelFilter !== label) return;
      if (result.ok) set({ orders: result.value.rows, nextCursor: result.value.nextCursor, loaded: true, loading: false, error: null });
      else set({ loaded: true, loading: false, error: result.error.code === 'locked' ? null : result.error });
    },
    async loadMore() {
      const cursor = get().nextCursor;
      if (cursor === null || get().loading) return;
      set({ loading: true });
      const result = await call('withdrawals/list', { limit: PAGE_SIZE, cursor, ...labelled() });
      if (result.ok) set({ orders: get().orders.concat(result.value.rows), nextCursor: result.value.nextCursor, loading: false });
      else set({ loading: false, error: result.error });
    },
    async loadQueue() {
      const result = await call('withdrawals/queue', {});
      if (result.ok) set({ queue: result.value.requests, queueBatches: result.value.batches });
    },
    async loadStuck() {
      const result = await call('withdrawals/list', { stuck: true });
      if (result.ok) set({ stuck: result.value.rows });
    },
    async refreshAll(changedId) {
      await Promise.all([get().load(), get().loadQueue(), get().loadStuck()]);
      const selected = get().selectedId;
      if (selected !== null && (changedId === undefined || changedId === null || changedId === selected)) {
        const result = await call('withdrawals/get', { id: selected });
        if (result.ok && get().selectedId === selected) set({ detail: result.value });
      }
    },
    async select(id) {
      set({ selectedId: id, detail: id === null ? null : (get().orders.find((order) => order.id === id) ?? get().queue.find((order) => order.id === id) ?? null) });
      if (id === null) return;
      const result = await call('withdrawals/get', { id });
      if (result.ok && get().selectedId === id) set({ detail: result.value });
    },
    preflight(draft) {
      return call('withdrawals/preflight', {
        currency: draft.currency,
        amount: draft.amount.trim(),
        toAddress: draft.toAddress,
        withdrawType: draft.withdrawType,
      });
    },
    async request(draft, as) {
      const memo = draft.memo.trim();
      const currency = draft.currency;
      if (!isCurrencySymbol(currency)) {
        const message = t('withdrawals.request.noAddressRules', { currency });
        return { ok: false, error: { code: 'invalidInput', message, fields: { currency: message } } };
      }
      const result = await call('withdrawals/request', {
        currency,
        amount: draft.amount.trim(),
        toAddress: draft.toAddress,
        withdrawType: draft.withdrawType,
        as,
        ...(memo === '' ? {} : { memo }),
      });
      if (result.ok) {
        replace(result.value.withdrawal);
        set({ selectedId: result.value.withdrawal.id, detail: result.value.withdrawal });
        await get().loadQueue();
      }
      return result;
    },
    async approve(id, as) {
      return after(await call('withdrawals/approve', { id, as }));
    },
    async reject(id, reason, as) {
      return after(await call('withdrawals/reject', { id, reason, as }));
    },
    async cancel(id, reason, as) {
      const trimmed = reason.trim();
      return after(await call('withdrawals/cancel', { id, as, ...(trimmed === '' ? {} : { reason: trimmed }) }));
    },
    async submit(id, as) {
      const result = await after(await call('withdrawals/submit', { id, as }));
      if (result.ok) set({ lastSent: result.value });
      return result;
    },
  };
});
