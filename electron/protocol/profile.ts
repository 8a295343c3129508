// The protocol profile: every detail the spec leaves "not shown", as one named setting citing PROTOCOL.md.
// Client and sandbox both read these; when the real platform documents a detail differently, change it here once.

export const PROTOCOL_PROFILE_VERSION = 1;

/** §1.1 RSA modulus sizes accepted for any of the four keys. */
export const RSA_MIN_MODULUS_BITS = 2048;
export const RSA_MAX_MODULUS_BITS = 4096;
export const RSA_DEFAULT_MODULUS_BITS = 2048;

/** §2.2 OAEP with SHA-1 (hash and MGF1), empty label; each chunk at most k - 42 bytes. */
export const OAEP_HASH = 'sha1';
export const OAEP_OVERHEAD_BYTES = 42;

/** §3.1 Signatures: RSASSA-PKCS1-v1_5 over SHA-256, standard base64. */
export const SIGNATURE_ALGORITHM = 'sha256';

/** §3.2 / §3.3 The canonical signing input joins timestamp, nonce and body/data with a line feed. */
export const SIGNING_SEPARATOR = '\n';

/** §4.1 Timestamps are whole Unix seconds; §4.2 the window is ±300 s. */
export const TIMESTAMP_PATTERN = /^[0-9]{1,12}$/;
export const TIMESTAMP_WINDOW_SECONDS = 300;

/** §4.3 Nonces: 16–64 alphanumerics; clients send 32 hex characters from a CSPRNG. */
export const NONCE_PATTERN = /^[A-Za-z0-9]{16,64}$/;
export const CLIENT_NONCE_BYTES = 16;

/** §4.4 How long either side remembers nonces to refuse replays. */
export const NONCE_MEMORY_SECONDS = 600;

/** Header names (spec: neutral SVC- prefix). */
export const HEADER = {
  appId: 'SVC-APP-ID',
  token: 'SVC-TOKEN',
  timestamp: 'SVC-TIMESTAMP',
  nonce: 'SVC-NONCE',
  sign: 'SVC-SIGN',
  authorization: 'Authorization',
} as const;

/** Envelope codes (spec "Response envelope"). */
export const CODE_SUCCESS = 10000;
export const CODE_FAILURE = 9999;

/** §5.1 Business request content type. */
export const BUSINESS_REQUEST_CONTENT_TYPE = 'text/plain; charset=utf-8';
/** §5.3 Body of the not-whitelisted answer (HTTP 403, text/plain). */
export const NOT_WHITELISTED_BODY = 'Oops';
export const NOT_WHITELISTED_STATUS = 403;
/** §5.4 Request body limit in bytes; larger answers HTTP 413 `requestTooLarge`. */
export const MAX_REQUEST_BODY_BYTES = 131072;
export const REQUEST_TOO_LARGE_STATUS = 413;

/** §6.1 getToken Authorization: "auth " + lowercase hex MD5 of MERCHANT_ID + "&" + SECRET. */
export const AUTHORIZATION_PREFIX = 'auth ';
export const AUTHORIZATION_SEPARATOR = '&';
/** §6.2 A token is 43 characters of base64url (32 random bytes). */
export const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
export const TOKEN_BYTES = 32;
/** §6.3 Sliding expiry of 8 h, absolute cap of 24 h after issue. */
export const TOKEN_SLIDING_SECONDS = 8 * 3600;
export const TOKEN_ABSOLUTE_SECONDS = 24 * 3600;

/** Paths (spec "Endpoints"). The QR path is spelled with three s on purpose (spec generateAddresssQrCode). */
export const PATHS = {
  getToken: '/api/merchant/getToken',
  createAddress: '/api/merchant/createAddress',
  createWithdrawOrder: '/api/merchant/createWithdrawOrder',
  merchantInfo: '/api/merchant/merchantInfo',
  getDeposits: '/api/merchant/getDeposits',
  checkWithdrawOrder: '/api/merchant/checkWithdrawOrder',
  selfcheck: '/api/merchant/v2/selfcheck',
  getCurrencies: '/api/common/getCurrencies',
  isAddress: '/api/common/isAddress',
  checkTransfer: '/api/common/checkTransfer',
  generateAddressQrCode: '/api/common/generateAddresssQrCode',
} as const;
export const BUSINESS_PATH_PREFIX = '/api/merchant/';
export const PUBLIC_PATH_PREFIX = '/api/common/';

/** §8 userOrder: 1–64 characters of [A-Za-z0-9_-]. */
export const USER_ORDER_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
/** §8 createWithdrawOrder `remark`: at most 255 characters. */
export const REMARK_MAX_LENGTH = 255;

/** spec getDeposits: limit 1..100, default 10; page default 1. */
export const DEPOSITS_LIMIT_MIN = 1;
export const DEPOSITS_LIMIT_MAX = 100;
export const DEPOSITS_LIMIT_DEFAULT = 10;

/** spec Limits + §12.2: checkTransfer per-txid cooldown and per-IP rate. */
export const CHECK_TRANSFER_COOLDOWN_SECONDS = 5;
export const CHECK_TRANSFER_RATE_PER_MINUTE = 20;

/** spec generateAddresssQrCode: the address charset. */
export const QR_ADDRESS_PATTERN = /^[A-Za-z0-9._+-]+$/;

/**
 * §9.2 names the decimals of the 13 symbols only. For a currency the service adds later (spec "Supported chains" rule
 * 4) the desk reads its decimals from this field of its getCurrencies record (a field the spec does not show, kept by
 * §8) when it holds a whole number up to CURRENCY_DECIMALS_MAX; without it the decimals are unknown and amounts in
 * that currency are only shown, exactly as sent.
 */
export const CURRENCY_RECORD_DECIMALS_FIELD = 'decimals';
export const CURRENCY_DECIMALS_MAX = 36;

/** §9.1 Amount syntax: digits, optionally one '.' and more digits; no sign, exponent or spaces. */
export const AMOUNT_PATTERN = /^[0-9]+(\.[0-9]+)?$/;

/** §10.2 The merchant acknowledges a callback with HTTP 200 and this body; 10 s without an answer fails. */
export const CALLBACK_ACK_BODY = 'success';
export const CALLBACK_TIMEOUT_MS = 10_000;
/** §10.3 Retry schedule, seconds after the event, 8 attempts. */
export const CALLBACK_RETRY_SCHEDULE_SECONDS = [0, 15, 60, 300, 900, 3600, 10800, 21600] as const;

/** Withdrawal order states (spec "States and transitions"); clients decide outcomes only from the final ones. */
export const FINAL_ORDER_STATUSES = ['success', 'WithdrawRefund', 'fail'] as const;
export const KNOWN_PENDING_ORDER_STATUSES = [
  'pendingConfirm',
  'pendingTransfer',
  'pendingFinancialConfirmation',
  'pendingCallback',
] as const;
export const WITHDRAW_TYPES = ['normal', 'financialConfirmation'] as const;

/** §13 Protocol versions an account may be on; selfcheck always answers 2. */
export const API_VERSION = 2;

/** Every failure message the spec and §7 name. Unknown messages are kept verbatim by the error factory. */
export const SERVICE_ERROR_MESSAGES = [
  // spec "Errors"
  'authFailed',
  'tokenExpired',
  'signatureFailed',
  'limitError',
  'withdrawOrderNotExist',
  'withdrawMinAmount',
  'invalidAmount',
  'auditorMessengerNotBound',
  // §7
  'decryptFailed',
  'requestTooLarge',
  'paramError',
  'currencyNotSupported',
  'invalidAddress',
  'insufficientBalance',
  'userOrderConflict',
  'withdrawTypeNotAllowed',
  'apiVersionNotEnabled',
  'rateLimited',
] as const;
export type KnownServiceErrorMessage = (typeof SERVICE_ERROR_MESSAGES)[number];

/** Client HTTP timeouts (ours, not the platform's): connect and whole-response budgets. */
export const HTTP_CONNECT_TIMEOUT_MS = 10_000;
export const HTTP_RESPONSE_TIMEOUT_MS = 30_000;
/** Client HTTP (ours): headers and body inactivity timeouts (undici), both within the response budget above. */
export const HTTP_HEADERS_TIMEOUT_MS = HTTP_RESPONSE_TIMEOUT_MS;
export const HTTP_BODY_TIMEOUT_MS = HTTP_RESPONSE_TIMEOUT_MS;
/** Client HTTP (ours): the largest response body read; a 100-record getDeposits page is about 36 KB (§2, ENVIRONMENT). */
export const HTTP_MAX_RESPONSE_BYTES = 4 * 1024 * 1024;

/** §6.4 After `tokenExpired` the client refreshes the token and retries the original request exactly once. */
export const TOKEN_EXPIRED_RETRIES = 1;
/** Client retries (ours): attempts in total for a read-only or idempotent call, backoff base and cap, with jitter. */
export const RETRY_MAX_ATTEMPTS = 3;
export const RETRY_BASE_DELAY_MS = 250;
export const RETRY_MAX_DELAY_MS = 4_000;

/** §5.6 Public POST endpoints take form parameters. */
export const PUBLIC_FORM_CONTENT_TYPE = 'application/x-www-form-urlencoded';
/** §12.2 The checkTransfer rate window (20 requests per rolling minute, per source IP). */
export const CHECK_TRANSFER_RATE_WINDOW_SECONDS = 60;
/** §12.3 The QR endpoint answers a PNG image; its bytes start with the PNG signature. */
export const QR_CONTENT_TYPE = 'image/png';
export const PNG_SIGNATURE = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);
/** §10.1 Callbacks arrive as JSON envelopes with code 10000. */
export const CALLBACK_CONTENT_TYPE = 'application/json';
