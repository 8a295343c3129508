// The seam for private-key work: the client decrypts responses through a PayloadDecryptor, either inline on the
// calling thread or on the worker-thread pool (crypto-pool.ts), so a 100-record page can use every core.
import type { KeyObject } from 'node:crypto';
import { decryptBytes } from './cipher';
import { traceIntake } from './intake-tracing';

export interface PayloadDecryptor {
  /** Decrypts §2 ciphertext (base64) to the plaintext bytes; rejects with CipherError on anything §2.4 refuses. */
  decrypt(base64: string): Promise<Buffer>;
  /** Releases threads, if any. Idempotent. */
  close(): Promise<void>;
}

/** Decrypts on the calling thread: the right choice for small payloads and for the sandbox. */
export function inlineDecryptor(privateKey: KeyObject): PayloadDecryptor {
  return {
    decrypt: async (base64) => traceIntake('decrypt', () => decryptBytes(base64, privateKey)),
    close: async () => undefined,
  };
}
