// Preload: exposes named, typed functions to the renderer via contextBridge; never ipcRenderer itself.
import { contextBridge } from 'electron';

contextBridge.exposeInMainWorld('treasury', Object.freeze({ version: '0.1.0' }));
