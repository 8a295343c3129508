// The callbacks module's door: what the other core modules use of it (eslint/core-modules.js, layers/imports).
export { callbacksHandlers } from './handlers';
export { CallbackListener, DEFAULT_CALLBACK_HOST, DEFAULT_CALLBACK_PORT } from './listener';
