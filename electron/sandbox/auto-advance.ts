// `--auto`: moves withdrawal orders along the normal flow on timers (pendingConfirm -> pendingTransfer ->
// pendingCallback -> success), and a financialConfirmation order to pendingFinancialConfirmation, where it waits for
// the admin interface (finance approval); from pendingCallback both flows complete. Timers are scaled by timeScale.
import { nextForward, type OrderStatus, type WithdrawType } from './order-states';

/** Real seconds an order spends in each state before the timer moves it on (divided by timeScale). */
export const AUTO_STEP_SECONDS: Readonly<Partial<Record<OrderStatus, number>>> = {
  pendingConfirm: 2,
  pendingTransfer: 5,
  pendingCallback: 3,
  // pendingFinancialConfirmation: absent on purpose, finance approves through the admin interface.
};

export interface AutoTarget {
  readonly merchantId: string;
  readonly userOrder: string;
  readonly withdrawType: WithdrawType;
  readonly status: OrderStatus;
}

/** Called when a timer fires; moves the order from `from` to `to` only if it is still in `from`. */
export type AutoMove = (target: AutoTarget, to: OrderStatus) => void;

export class AutoAdvancer {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private closed = false;

  constructor(
    private readonly timeScale: number,
    private readonly move: AutoMove,
  ) {}

  /** (Re)arms the timer for an order that just entered `target.status`. */
  watch(target: AutoTarget): void {
    if (this.closed) return;
    const key = `${target.merchantId}\u0000${target.userOrder}`;
    const existing = this.timers.get(key);
    if (existing) clearTimeout(existing);
    this.timers.delete(key);
    const seconds = AUTO_STEP_SECONDS[target.status];
    const to = nextForward(target.withdrawType, target.status);
    if (seconds === undefined || to === undefined) return;
    const timer = setTimeout(() => {
      this.timers.delete(key);
      if (!this.closed) this.move(target, to);
    }, Math.round((seconds * 1000) / this.timeScale));
    this.timers.set(key, timer);
  }

  close(): void {
    this.closed = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }
}
