// Public face of the chain rules: currencies, decimals, address validation. Pure code, usable in every layer.
export * from './currencies';
export * from './address';
export * from './amounts';
export * from './explorers';
export * from './service-url';
