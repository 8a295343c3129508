// Names of the four merchant credentials (PROTOCOL §1.3), in the order they are stored, shown and validated.
export const CREDENTIAL_FIELDS = ['merchantId', 'secret', 'platformPublicKey', 'merchantPrivateKey'] as const;

/** One of the four merchant credentials. */
export type CredentialField = (typeof CREDENTIAL_FIELDS)[number];

/** Human names for messages (the field name stays in front so a user can find it in a file). */
export const CREDENTIAL_FIELD_TITLES: Readonly<Record<CredentialField, string>> = {
  merchantId: 'merchant ID (SVC-APP-ID)',
  secret: 'merchant secret',
  platformPublicKey: 'platform public key',
  merchantPrivateKey: 'merchant private key',
};
