// The public API of the protocol layer (merchant API v2 SDK): profile settings, primitives, clients, callback
// verification and typed errors. Other layers import from here, not from the individual files.
export * from './profile';
export * from './errors';
export * from './keys';
export * from './cipher';
export * from './signature';
export * from './envelope';
export * from './wire';
export * from './decryptor';
export * from './schemas';
export * from './evidence';
export { DEFAULT_HTTP_TIMEOUTS, HttpTransport, toTransportError, type HttpTimeouts, type HttpTransportOptions } from './http';
export {
  openSignedEnvelope,
  readBusinessResponse,
  signatureHeadersFrom,
  verifyCallback,
  type CallbackContext,
  type OpenedEnvelope,
  type SignatureHeaders,
  type VerifiedCallback,
  type VerifyContext,
} from './verify';
export { estimatedTokenExpiry, TokenManager, requestToken, type TokenLifetime, type TokenRequestDeps } from './token-manager';
export {
  backoffDelayMs,
  decideRetry,
  DEFAULT_BACKOFF,
  OPERATIONS,
  runWithRetry,
  type BackoffPolicy,
  type OperationName,
  type OperationSafety,
  type RetryDecision,
  type RetryInput,
} from './retry';
export {
  MerchantClient,
  type CreateAddressParams,
  type CreateWithdrawOrderParams,
  type DepositPage,
  type DepositScanParams,
  type GetDepositsParams,
  type MerchantClientOptions,
  type SelfcheckOutcome,
} from './merchant-client';
export { PublicClient, type PublicCheck, type PublicClientOptions, type TransferCheck } from './public-client';
export { createCryptoPool, CryptoPoolError, type CryptoPool, type CryptoPoolOptions } from './crypto-pool';
export { computeFee, feeScheduleOf, minimumAmount, type FeeKind, type FeeSchedule } from './fees';
export {
  epochNow,
  INTAKE_CHANNEL,
  intakeTracing,
  POOL_TIMING_CHANNEL,
  poolTiming,
  traceIntake,
  type IntakeStage,
  type IntakeTrace,
  type PoolSliceTiming,
} from './intake-tracing';
