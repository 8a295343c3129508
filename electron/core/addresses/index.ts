// The addresses module's door: what the other core modules use of it (eslint/core-modules.js, layers/imports).
export { addressesHandlers } from './handlers';
