import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { installApi } from './api.ts';
import { startAsking } from './boot.ts';
import { VaultGate } from './features/vault/UnlockScreen.tsx';
import { hostApi } from './host-bridge.ts';
import './styles/index.css';

// A file dropped anywhere but on a drop zone must not make the window navigate to it.
for (const type of ['dragover', 'drop'] as const) {
  window.addEventListener(type, (event) => event.preventDefault());
}

installApi(hostApi());
startAsking();

const root = document.getElementById('root');
if (!root) throw new Error('index.html lacks #root');
createRoot(root).render(
  <StrictMode>
    <VaultGate>
      <App />
    </VaultGate>
  </StrictMode>,
);
