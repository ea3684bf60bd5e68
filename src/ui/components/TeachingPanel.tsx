import { resolveExperiment } from '../../config/config';
import { experimentUrl } from '../../config/urlState';
import { usePlayground } from '../store';
import { useOpenPreset } from '../session/useOpenPreset';
import { SETTINGS, isSettingKey } from '../../config/settings';
import { FAMILY_LABELS, teachingFamily } from './family';
import { findPreset, topicsFor, type Topic } from './teachingTopics';

function TopicNote({ topic, locked, other }: { topic: Topic; locked: boolean; other: boolean }) {
  const openPreset = useOpenPreset();
  const setSetting = usePlayground((s) => s.setSetting);
  const preset = findPreset(topic);
  return (
    <details data-topic={topic.id} data-family={topic.family}>
      <summary>
        {topic.title}
        {other && <span className="muted"> ({FAMILY_LABELS[topic.family]})</span>}
      </summary>
      <p>{topic.text}</p>
      {preset ? (
        <a
          href={experimentUrl(window.location.href, resolveExperiment(preset.name, { ...(topic.seed === undefined ? {} : { seed: topic.seed }), ...topic.settings }))}
          onClick={(e) => {
            e.preventDefault();
            if (locked) return;
            openPreset(preset.name);
            if (topic.seed !== undefined) setSetting('seed', topic.seed);
            for (const key of Object.keys(topic.settings ?? {})) {
              const value = isSettingKey(key) ? topic.settings?.[key] : undefined;
              if (isSettingKey(key) && value !== undefined) setSetting(key, value);
            }
          }}
          aria-disabled={locked}
        >
          Open the “{preset.title}” preset{topic.seed === undefined ? '' : ` (seed ${topic.seed})`}
          {topic.settings ? ` with ${Object.entries(topic.settings).map(([k, v]) => `${isSettingKey(k) ? SETTINGS[k].label : k} = ${String(v)}`).join(', ')}` : ''}
        </a>
      ) : (
        <p className="help">No preset in this build shows this yet.</p>
      )}
    </details>
  );
}

/**
 * "What am I looking at?": the notes on the open preset's kind of learning, each with the preset
 * that shows it; the other families' notes folded under one line below them.
 */
export function TeachingPanel() {
  const status = usePlayground((s) => s.status);
  const family = usePlayground((s) => teachingFamily(s.config.settings.algorithm));
  const locked = !['idle', 'done', 'error'].includes(status);
  const { own, other } = topicsFor(family);
  return (
    <section aria-label="What am I looking at?" id="teaching" className="teaching" data-family={family}>
      <h2>What am I looking at?</h2>
      <p className="help">Notes on {FAMILY_LABELS[family]}, the kind of learning the open preset shows.</p>
      {own.map((t) => (
        <TopicNote key={t.id} topic={t} locked={locked} other={false} />
      ))}
      <details className="other-topics" data-testid="other-topics">
        <summary>Notes on the other kinds of learning</summary>
        {other.map((t) => (
          <TopicNote key={t.id} topic={t} locked={locked} other />
        ))}
      </details>
    </section>
  );
}
