// Which public key signs for an operator as they stood: their enrolled key or one of their device keys. Apart from the
// roster (ledger/roster.ts) and the signer rule (signers.ts), which both use it, so neither imports the other for it.

/** The keys an operator's snapshot in the roster holds (OperatorSnapshot has these fields, among others). */
export interface OperatorKeys {
  readonly keyId: string;
  readonly publicKey: string;
  readonly devices: readonly { readonly keyId: string; readonly publicKey: string }[];
}

/** The public key with this id that signs for the operator as they stood (their enrolled key or a device key), or null. */
export function snapshotKey(snapshot: OperatorKeys, keyId: string): string | null {
  if (snapshot.keyId === keyId) return snapshot.publicKey;
  return snapshot.devices.find((device) => device.keyId === keyId)?.publicKey ?? null;
}
