import { useRef, type ReactNode } from 'react';
import { downloadBlob } from '../../session/download';
import { usePlayground } from '../../store';
import { figureToPng } from './pngExport';
import { chartExplanation } from './explanations';
import { teachingFamily } from '../family';

interface Props {
  title: string;
  caption?: string;
  testId: string;
  points?: number;
  wide?: boolean;
  /** Shown over the (mounted, empty) chart while it has no points. */
  emptyHint?: string;
  children: ReactNode;
}

/**
 * A chart's figure: title, one-line caption, and a "PNG" download of what is drawn. Charts are
 * mounted before their data arrive (mounting a recharts chart is a long task of its own, which
 * should happen at rest and not while training runs), with `emptyHint` over them until then.
 */
export function ChartFrame({ title, caption, testId, points, wide, emptyHint, children }: Props) {
  const ref = useRef<HTMLElement>(null);
  const save = async () => {
    if (!ref.current) return;
    try {
      downloadBlob(`${testId}.png`, await figureToPng(ref.current, title));
    } catch (err) {
      usePlayground.getState().notify('warning', `Could not save the chart: ${err instanceof Error ? err.message : String(err)}`);
    }
  };
  return (
    <figure ref={ref} className={`chart${wide ? ' chart-wide' : ''}`} data-testid={testId} data-points={points}>
      <figcaption>
        <span>
          <strong>{title}</strong> {caption && <span className="muted">{caption}</span>}
        </span>
        <button type="button" className="small" onClick={() => void save()} aria-label={`Download the ${title} chart as PNG`}>
          PNG
        </button>
      </figcaption>
      <ChartExplain testId={testId} />
      {children}
      {emptyHint && points === 0 && <p className="chart-hint">{emptyHint}</p>}
    </figure>
  );
}

/** "What is this?": the chart's explanation, folded under its title. */
export function ChartExplain({ testId }: { testId: string }) {
  const family = usePlayground((s) => teachingFamily(s.config.settings.algorithm));
  const e = chartExplanation(testId, family);
  if (!e) return null;
  return (
    <details className="chart-explain" data-testid={`explain-${testId}`} data-family={family}>
      <summary>What is this?</summary>
      <p>{e.what}</p>
      <p>
        <strong>Good:</strong> {e.good}
      </p>
      <p>
        <strong>Trouble:</strong> {e.bad}
      </p>
    </details>
  );
}
