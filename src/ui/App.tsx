import { useCallback, useEffect, useState } from 'react';
import { ActorsTable } from './components/ActorsTable';
import { AgentInside } from './components/AgentInside';
import { BackendBadge } from './components/BackendBadge';
import { ClusterPanel } from './components/ClusterPanel';
import { Charts } from './components/charts/Charts';
import { ConfigPanel } from './components/ConfigPanel';
import { EnvView } from './components/EnvView';
import { Notices } from './components/Notices';
import { PanelBoundary } from './components/PanelBoundary';
import { PresetGallery } from './components/PresetGallery';
import { ProgressPanel } from './components/ProgressPanel';
import { RunControls } from './components/RunControls';
import { RunsPanel } from './components/RunsPanel';
import { hideLabel, SharePanel } from './components/SharePanel';
import { SwarmTimeline } from './components/SwarmTimeline';
import { TeachingPanel } from './components/TeachingPanel';
import { Tour } from './components/Tour';
import { afterFirstPaint } from './afterFirstPaint';
import { useSession } from './session';
import { usePlayground } from './store';
import { isSwarm as isSwarmAlgorithm } from '../config/watchable';

export function App({ autostart = false }: { autostart?: boolean }) {
  const { probeBackend, startRun } = useSession();
  const hide = usePlayground((s) => s.view.hide);
  const isSwarm = usePlayground((s) => isSwarmAlgorithm(s.config.settings.algorithm));
  const hasTrace = usePlayground((s) => s.swarmTrace !== null);
  const hasInspect = usePlayground((s) => s.inspect !== null);
  const [touring, setTouring] = useState(false);
  const closeTour = useCallback(() => setTouring(false), []);
  const shown = (part: string) => !hide.includes(part);
  // Columns a link hides give their space to the charts (the grid follows what is there).
  const hasSidebar = shown('presets') || shown('config');
  const hasRight = !isSwarm || hasTrace || shown('teaching') || shown('runs');
  const layoutClass = `layout${hasSidebar ? '' : ' no-sidebar'}${hasRight ? '' : ' no-right'}`;

  useEffect(
    // The learner worker (and tfjs with it) starts after the first paint, never before it.
    () =>
      afterFirstPaint(() => {
        void probeBackend().then(() => {
          if (autostart) void startRun();
        });
      }),
    [autostart, probeBackend, startRun],
  );

  return (
    <div className="app">
      <header className="app-header">
        <div>
          <h1>PARL Playground</h1>
          <p className="tagline">Parallel-agent reinforcement learning in your browser: a learner on the fastest backend it measures here, actors in Web Workers.</p>
        </div>
        <div className="header-right">
          <button type="button" onClick={() => setTouring(true)} data-testid="tour-button">
            Tour
          </button>
          <BackendBadge />
        </div>
      </header>
      {hide.length > 0 && (
        <div className="teaching-banner" role="note">
          A simplified view for teaching ({hide.map(hideLabel).join(', ')} hidden).{' '}
          <button type="button" className="small" onClick={() => usePlayground.getState().setView({ ...usePlayground.getState().view, hide: [] })}>
            Show everything
          </button>
        </div>
      )}
      <Notices />
      <main className={layoutClass}>
        {(shown('presets') || shown('config')) && (
          <aside className="panel sidebar" aria-label="Experiment settings">
            <PanelBoundary name="settings">
              {shown('presets') && <PresetGallery />}
              {shown('config') && <ConfigPanel />}
            </PanelBoundary>
          </aside>
        )}
        <section className="center" aria-label="Training">
          <div className="panel panel-controls" id="run-controls">
            <PanelBoundary name="run controls">
              <div className="controls-row">
                <RunControls />
                <SharePanel />
              </div>
              <ProgressPanel />
            </PanelBoundary>
          </div>
          <div className="panel panel-charts">
            <PanelBoundary name="charts">
              <Charts />
            </PanelBoundary>
          </div>
          {shown('actors') && (
            <div className="panel panel-actors">
              <PanelBoundary name="actors">
                <ActorsTable />
              </PanelBoundary>
            </div>
          )}
          {shown('actors') && (
            // Where the actors come from: a teaching link that hides the actors hides this too.
            <div className="panel panel-actors panel-cluster">
              <PanelBoundary name="cluster">
                <ClusterPanel />
              </PanelBoundary>
            </div>
          )}
        </section>
        <aside className="side-right" aria-label="Environment, notes and runs">
          {hasTrace && (
            <div className="panel panel-live">
              <PanelBoundary name="swarm timeline">
                <SwarmTimeline />
              </PanelBoundary>
            </div>
          )}
          {!isSwarm && (
            <div className="panel panel-live">
              <PanelBoundary name="environment">
                <EnvView />
              </PanelBoundary>
            </div>
          )}
          {hasInspect && (
            <div className="panel panel-inside">
              <PanelBoundary name="inside the agent">
                <AgentInside />
              </PanelBoundary>
            </div>
          )}
          {shown('teaching') && (
            <div className="panel panel-teaching">
              <PanelBoundary name="notes">
                <TeachingPanel />
              </PanelBoundary>
            </div>
          )}
          {shown('runs') && (
            <div className="panel panel-runs">
              <PanelBoundary name="runs">
                <RunsPanel />
              </PanelBoundary>
            </div>
          )}
        </aside>
      </main>
      {touring && <Tour onClose={closeTour} />}
    </div>
  );
}
