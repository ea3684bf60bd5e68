import { useEffect } from 'react';
import { BackendBadge } from './components/BackendBadge';
import { ConfigPanel } from './components/ConfigPanel';
import { Notices } from './components/Notices';
import { ProgressPanel } from './components/ProgressPanel';
import { ReturnChart } from './components/ReturnChart';
import { RunControls } from './components/RunControls';
import { ActorsTable } from './components/ActorsTable';
import { probeBackend } from './session';

export function App() {
  useEffect(() => {
    void probeBackend();
  }, []);

  return (
    <div className="app">
      <header className="app-header">
        <div>
          <h1>PARL Playground</h1>
          <p className="tagline">Parallel-agent reinforcement learning in your browser: a learner on the GPU, actors in Web Workers.</p>
        </div>
        <BackendBadge />
      </header>
      <main className="layout">
        <aside className="panel sidebar" aria-label="Experiment settings">
          <ConfigPanel />
        </aside>
        <section className="center" aria-label="Training">
          <div className="panel">
            <RunControls />
            <ProgressPanel />
          </div>
          <div className="panel">
            <ReturnChart />
          </div>
          <div className="panel">
            <ActorsTable />
          </div>
        </section>
      </main>
      <Notices />
    </div>
  );
}
