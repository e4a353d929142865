// First: main is asked for the first screen before the rest of the bundle is evaluated.
import './ask-first.ts';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { LockGate } from './features/lock/LockGate.tsx';
import { VaultGate } from './features/vault/UnlockScreen.tsx';
import { keepClearedWhile } from './shell/personal-stores.ts';
import './styles.css';

// A file dropped anywhere but on a drop zone must not make the window navigate to it.
for (const type of ['dragover', 'drop'] as const) {
  window.addEventListener(type, (event) => event.preventDefault());
}

const root = document.getElementById('root');
if (!root) throw new Error('index.html lacks #root');
createRoot(root).render(
  <StrictMode>
    <VaultGate>
      <LockGate keepCleared={keepClearedWhile}>
        <App />
      </LockGate>
    </VaultGate>
  </StrictMode>,
);
