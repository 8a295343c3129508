// useOperatorPromptStore: privileged actions ask "who is acting?" (operator name + passphrase, the contract's `as`)
// through one modal dialog. The passphrase lives only in the dialog's input and the one call it is passed to.
import { create } from 'zustand';
import type { ApproverView } from '../../../electron/contract';
import type { ContractError, Result } from '../api';

export interface ActingOperator {
  readonly operator: string;
  readonly passphrase: string;
}

export interface OperatorPromptRequest {
  readonly title: string;
  /** What will happen, in one or two sentences. */
  readonly description: string;
  readonly confirmLabel: string;
  /** Ask for a reason too (reject, cancel); `reasonRequired` refuses an empty one. */
  readonly reason?: { readonly label: string; readonly required: boolean };
  /**
   * What the decision is about, as a fingerprint to compare (a withdrawal intent's, an accepted key's): shown large at
   * the top of the dialog. A null value says there is none (a request made before signed approvals).
   */
  readonly fingerprint?: { readonly label: string; readonly value: string | null; readonly compare: string; readonly none?: string };
  /** Everything an approver signs (withdrawals/review): shown under the fingerprint, before the passphrase is asked. */
  readonly review?: ApproverView;
  /** Who is expected to act (e.g. "an approver other than the initiator"). */
  readonly hint?: string;
  readonly danger?: boolean;
  /** Runs the action; an error answer keeps the dialog open with its message. */
  readonly run: (as: ActingOperator, reason: string) => Promise<Result<unknown>>;
}

interface PendingPrompt extends OperatorPromptRequest {
  readonly resolve: (result: Result<unknown> | null) => void;
}

interface OperatorPromptStore {
  readonly pending: PendingPrompt | null;
  readonly error: ContractError | null;
  readonly busy: boolean;
  /** Opens the dialog; resolves with the action's ok Result, or null when the operator cancelled. */
  ask(request: OperatorPromptRequest): Promise<Result<unknown> | null>;
  confirm(as: ActingOperator, reason: string): Promise<void>;
  cancel(): void;
}

export const useOperatorPromptStore = create<OperatorPromptStore>()((set, get) => ({
  pending: null,
  error: null,
  busy: false,
  ask(request) {
    get().pending?.resolve(null);
    return new Promise((resolve) => set({ pending: { ...request, resolve }, error: null, busy: false }));
  },
  async confirm(as, reason) {
    const pending = get().pending;
    if (pending === null || get().busy) return;
    set({ busy: true, error: null });
    const result = await pending.run(as, reason);
    if (get().pending !== pending) return;
    if (result.ok) {
      set({ pending: null, busy: false, error: null });
      pending.resolve(result);
    } else {
      set({ busy: false, error: result.error });
    }
  },
  cancel() {
    const pending = get().pending;
    set({ pending: null, error: null, busy: false });
    pending?.resolve(null);
  },
}));

/** Shorthand for screens: `const result = await askOperator({...})`. */
export function askOperator<T>(
  request: Omit<OperatorPromptRequest, 'run'> & { run: (as: ActingOperator, reason: string) => Promise<Result<T>> },
): Promise<Result<T> | null> {
  return useOperatorPromptStore.getState().ask(request as OperatorPromptRequest) as Promise<Result<T> | null>;
}
