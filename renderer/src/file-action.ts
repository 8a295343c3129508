// A file chosen in the system's dialog (main process) and what was done with it: the state a button that saves or
// opens a file shows. The window never names or sees a path: it gets the file's name, or "cancelled".
import { useState } from 'react';
import type { ContractError, FileOutcome, Result } from '../../electron/contract';

export interface FileAction<T> {
  readonly busy: boolean;
  readonly error: ContractError | null;
  /** The last completed action's file name and value (null before, after a cancel, or after an error). */
  readonly done: { readonly fileName: string; readonly value: T } | null;
  run(): Promise<void>;
}

export function useFileAction<T>(action: () => Promise<Result<FileOutcome<T>>>): FileAction<T> {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ContractError | null>(null);
  const [done, setDone] = useState<{ readonly fileName: string; readonly value: T } | null>(null);
  async function run(): Promise<void> {
    setBusy(true);
    const result = await action();
    setBusy(false);
    setError(result.ok ? null : result.error);
    setDone(result.ok && !result.value.cancelled ? { fileName: result.value.fileName, value: result.value.value } : null);
  }
  return { busy, error, done, run };
}
