/**
 * Live changes while a run trains: a schedule given at the start (from a link: the CLI and the page
 * replay a run's changes from it) and changes asked for while it runs (the page's config panel).
 * Each is applied just before an update (LoopProgress.proceed), and what it means belongs to the
 * place that owns the setting:
 *   - an algorithm's hyperparameter: its update rule's `applyChange(name, value)`,
 *   - the number of actors: the loop's actor pool grows or shrinks,
 *   - anything a loop reads from the settings each update (the swarm's λ schedules): the run's own
 *     copy of the settings, which every change also updates.
 * Every applied change is sent as a 'change' record; a change to the value a setting already has
 * is dropped without one.
 */
import type { ExperimentConfig } from '../config/config';
import { checkLiveChange, sortChanges, type LiveChange, type LiveValue } from '../config/liveSettings';
import { descriptorOf } from '../config/registry';
import type { ExperimentSettings } from '../config/settings';
import type { RunRecord } from '../runs/records';

/** An update rule that takes live changes (src/algorithms/*: an added method). */
export interface LiveTunable {
  applyChange(name: string, value: LiveValue): boolean;
}

export function isLiveTunable(x: object): x is LiveTunable {
  return typeof (x as Partial<LiveTunable>).applyChange === 'function';
}

export class LiveChanges {
  private readonly schedule: LiveChange[];
  private next = 0;
  private requested: LiveChange[] = [];
  private tunable: LiveTunable | null = null;
  private resizePool: ((n: number) => Promise<void>) | null = null;

  /**
   * `config` is the run's own copy: changes are written into its settings. The schedule is
   * checked here; a change that does not apply to this config throws ConfigError naming it.
   */
  constructor(
    private readonly config: ExperimentConfig,
    schedule: readonly LiveChange[],
    private readonly emit: (record: RunRecord) => void,
  ) {
    this.schedule = sortChanges(schedule.map((c) => checkLiveChange(config, c.update, c.key, c.value)));
  }

  /** The settings as they are now (the start config with every change applied so far). */
  get settings(): Readonly<ExperimentSettings> {
    return this.config.settings;
  }

  /** Ask for a change at the next update. Throws ConfigError when the key cannot change live or the value is out of range. */
  request(key: string, value: unknown): void {
    this.requested.push(checkLiveChange(this.config, 1, key, value));
  }

  /** The update rule that applies algorithm settings (the loop calls this once it has built it). */
  tune(algorithm: object): void {
    this.tunable = isLiveTunable(algorithm) ? algorithm : null;
  }

  /** How the loop's actor pool changes size (createReportingPool registers it). */
  onResize(resize: ((n: number) => Promise<void>) | null): void {
    this.resizePool = resize;
  }

  /** Apply every change due before update `update`: the schedule's up to it, then those asked for since the last update. */
  async applyDue(update: number): Promise<void> {
    const due: LiveChange[] = [];
    while (this.next < this.schedule.length && this.schedule[this.next].update <= update) due.push(this.schedule[this.next++]);
    due.push(...this.requested.splice(0));
    for (const c of due) await this.apply(update, c);
  }

  private async apply(update: number, c: LiveChange): Promise<void> {
    const settings: Record<string, LiveValue> = this.config.settings;
    const from = settings[c.key];
    if (from === c.value) return;
    if (c.key === 'actors') {
      if (!this.resizePool) throw new Error('this loop cannot change its number of actors');
      await this.resizePool(c.value as number);
    } else {
      const prefix = `${descriptorOf(this.config.settings.algorithm).prefix}.`;
      this.tunable?.applyChange(c.key.slice(prefix.length), c.value);
    }
    settings[c.key] = c.value;
    this.emit({ type: 'change', update, key: c.key, from, to: c.value });
  }
}
