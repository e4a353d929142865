import { contextBridge, ipcRenderer } from 'electron';
import { bridge } from '#contract/bridge.ts';
import { ipcTransport } from './ipc-transport.ts';

// The page gets one frozen object with a function per contract channel and `on`: no ipcRenderer.
contextBridge.exposeInMainWorld('vetted', bridge(ipcTransport(ipcRenderer)));
