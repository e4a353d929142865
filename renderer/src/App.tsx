import { useEffect } from 'react';
import { useAppStore } from './store.ts';
import { StatusBar } from './ui/StatusBar.tsx';

export function App() {
  const { info, problem, load } = useAppStore();

  useEffect(() => {
    void load();
  }, [load]);

  return (
    <div className="shell">
      <header className="shell-header">
        <h1>Vetted</h1>
        {info?.serviceMode === 'sandbox' && (
          <span className="badge badge-sandbox" title="Built-in sandbox: no real customers">
            Sandbox
          </span>
        )}
      </header>
      <main className="shell-main" aria-label="Vetted">
        {problem ? <p role="alert">{problem}</p> : <p>Customer verification for compliance reviewers.</p>}
      </main>
      <StatusBar />
    </div>
  );
}
