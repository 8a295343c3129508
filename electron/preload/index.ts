// Preload (sandboxed, bundled to one CommonJS file): exposes window.treasury = { call, onEvent } via contextBridge.
// Named functions only — never ipcRenderer itself. Loads nothing at runtime but `electron` and our own zod-free code.
import { contextBridge, ipcRenderer } from 'electron';
import { createTreasuryBridge } from './bridge';

contextBridge.exposeInMainWorld('treasury', createTreasuryBridge(ipcRenderer));
