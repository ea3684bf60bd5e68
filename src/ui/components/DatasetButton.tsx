/**
 * "Save dataset" on a saved off-policy Box-action run (DDPG, TD3, SAC) that is not training: its
 * final weights play greedy, noisy and random episodes in a worker (src/workers/datasetWorker.ts)
 * and the transitions download as a dataset file that CQL and behaviour cloning read.
 */
import { useState } from 'react';
import { canSaveDataset, SAVED_DATASET_EPISODES } from '../../runs/dataset';
import type { RunMeta } from '../../runs/runStore';
import { makeDatasetInWorker } from '../../workers/datasetClient';
import { useSession } from '../session';
import { downloadBlob, fileName } from '../session/download';
import { usePlayground } from '../store';

export function DatasetButton({ run }: { run: RunMeta }) {
  const { savedWeights } = useSession();
  const [making, setMaking] = useState(false);
  if (!run.weights || run.status === 'running' || !canSaveDataset(run.config)) return null;
  const save = async () => {
    const notify = usePlayground.getState().notify;
    setMaking(true);
    try {
      const weights = await savedWeights(run.id);
      if (!weights) {
        notify('error', `Could not save a dataset of "${run.name}": it has no saved weights.`);
        return;
      }
      const reply = await makeDatasetInWorker({ config: run.config, checkpoint: weights.bytes, episodes: SAVED_DATASET_EPISODES });
      if (!reply.ok) {
        notify('error', `Could not save a dataset of "${run.name}": ${reply.error}`);
        return;
      }
      downloadBlob(fileName(`${run.name} dataset`, 'json'), new Blob([reply.text], { type: 'application/json' }));
      notify('info', `Dataset of "${run.name}": ${reply.summary}.`);
    } finally {
      setMaking(false);
    }
  };
  return (
    <button
      type="button"
      className="small"
      onClick={() => void save()}
      disabled={making}
      title={`${SAVED_DATASET_EPISODES} episodes of this run's final policy (greedy, noisy and random) as an offline-RL dataset file for CQL and behaviour cloning`}
      data-testid="save-dataset"
    >
      {making ? 'Saving dataset…' : 'Save dataset'}
    </button>
  );
}
