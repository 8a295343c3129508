// What a store keeps of a per-profile answer it loads: the value; nothing (and no error) while no profile is active or the desk is locked; or, on any other error, the error beside the value it already showed.
import type { ContractError, Result } from '../api';

export function profileAnswer<T>(result: Result<T>): { readonly value: T | null; readonly error: ContractError | null } | { readonly error: ContractError } {
  if (result.ok) return { value: result.value, error: null };
  if (result.error.code === 'noProfile' || result.error.code === 'locked') return { value: null, error: null };
  return { error: result.error };
}
