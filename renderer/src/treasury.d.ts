// Declares window.treasury, the bridge the preload exposes: the renderer's only way to the engine (contract methods
// and events, typed by electron/contract).
import type { TreasuryBridge } from '../../electron/contract';

declare global {
  interface Window {
    readonly treasury: TreasuryBridge;
  }
}

export {};
