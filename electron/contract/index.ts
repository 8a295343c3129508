// Public face of the contract: methods, request schemas, DTOs, events and the Result type.
export * from './api';
export * from './application-log';
export * from './clock';
export * from './display-text';
export * from './limits';
export * from './dto';
export * from './events';
export * from './methods';
export * from './notifications';
export * from './reconciliation';
export * from './result';
export * from './screens';
export * from './shortcuts';
export * from './stuck-orders';
export * from './time-zone';
export * from './withdrawal-lifecycle';
export * from './desktop';
