// Small React hooks shared by the screens: a ticking clock for "2 min ago", debounced values, an element's width, one
// contract call's state.
import { useEffect, useState, type RefObject } from 'react';
import type { MethodName, RequestOf, ResponseOf } from '../../electron/contract';
import { call, type ContractError } from './api';

/** The current time, refreshed every `intervalMs` so relative times stay true. */
export function useNow(intervalMs = 15_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), intervalMs);
    return () => window.clearInterval(timer);
  }, [intervalMs]);
  return now;
}

/** `value`, but only after it stopped changing for `delayMs`. */
export function useDebounced<T>(value: T, delayMs: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = window.setTimeout(() => setDebounced(value), delayMs);
    return () => window.clearTimeout(timer);
  }, [value, delayMs]);
  return debounced;
}

/** The content width of the element `ref` points at, in CSS pixels, kept current as it resizes (0 before it is laid out). */
export function useElementWidth(ref: RefObject<HTMLElement | null>): number {
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const element = ref.current;
    if (element === null) return undefined;
    setWidth(element.clientWidth);
    const observer = new ResizeObserver(() => setWidth(element.clientWidth));
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}

/** One contract method called from a form: its last answer or error, and whether a call is under way. */
export interface ContractCall<M extends MethodName> {
  readonly result: ResponseOf<M> | null;
  readonly error: ContractError | null;
  readonly busy: boolean;
  /** Calls the method; a new call clears the previous answer and error first. */
  readonly run: (request: RequestOf<M>) => Promise<void>;
}

export function useContractCall<M extends MethodName>(method: M): ContractCall<M> {
  const [result, setResult] = useState<ResponseOf<M> | null>(null);
  const [error, setError] = useState<ContractError | null>(null);
  const [busy, setBusy] = useState(false);
  async function run(request: RequestOf<M>): Promise<void> {
    setBusy(true);
    setResult(null);
    setError(null);
    const answer = await call(method, request);
    setBusy(false);
    if (answer.ok) setResult(answer.value);
    else setError(answer.error);
  }
  return { result, error, busy, run };
}
