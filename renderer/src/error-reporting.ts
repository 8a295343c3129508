// Errors nobody expected in the window (house rule 14): a screen that failed to draw (ErrorBoundary), an uncaught
// error, an unhandled promise rejection. Each is sent to main's application log through desktop/reportError, cut to
// the contract's bounds and at most REPORTS_PER_MINUTE a minute (main redacts and limits again). Never throws.
import { RENDERER_ERROR_LIMITS, type RendererErrorKind } from '../../electron/contract';
import { call } from './api';

const REPORTS_PER_MINUTE = 10;
const MINUTE_MS = 60_000;
const sentAt: number[] = [];

function cut(text: string, limit: number): string {
  return text.length <= limit ? text : text.slice(0, limit);
}

/** What a thrown value says about itself: its message and stack, or its text. */
function describe(error: unknown): { message: string; stack: string | undefined } {
  if (error instanceof Error) return { message: `${error.name}: ${error.message}`, stack: error.stack };
  if (typeof error === 'string') return { message: error, stack: undefined };
  try {
    return { message: JSON.stringify(error) ?? String(error), stack: undefined };
  } catch {
    return { message: String(error), stack: undefined };
  }
}

/** Sends one report to main (dropped beyond the per-minute limit). */
export function reportError(kind: RendererErrorKind, error: unknown, componentStack?: string | null): void {
  const now = Date.now();
  while (sentAt.length > 0 && (sentAt[0] ?? 0) <= now - MINUTE_MS) sentAt.shift();
  if (sentAt.length >= REPORTS_PER_MINUTE) return;
  sentAt.push(now);
  const { message, stack } = describe(error);
  void call('desktop/reportError', {
    kind,
    message: cut(message, RENDERER_ERROR_LIMITS.messageChars),
    ...(stack === undefined ? {} : { stack: cut(stack, RENDERER_ERROR_LIMITS.stackChars) }),
    ...(componentStack === undefined || componentStack === null ? {} : { componentStack: cut(componentStack, RENDERER_ERROR_LIMITS.stackChars) }),
  }).catch(() => undefined);
}

/** Reports the window's uncaught errors and unhandled rejections; returns the function that stops it. */
export function startErrorReporting(): () => void {
  const onError = (event: ErrorEvent): void => reportError('error', event.error ?? event.message);
  const onRejection = (event: PromiseRejectionEvent): void => reportError('unhandledRejection', event.reason);
  window.addEventListener('error', onError);
  window.addEventListener('unhandledrejection', onRejection);
  return () => {
    window.removeEventListener('error', onError);
    window.removeEventListener('unhandledrejection', onRejection);
  };
}
