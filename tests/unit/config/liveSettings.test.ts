import { readFileSync } from 'node:fs';
import LZString from 'lz-string';
import { describe, expect, it } from 'vitest';
import { resolveExperiment } from '../../../src/config/config';
import { liveSettingKeys, whyNotLive } from '../../../src/config/liveSettings';
import { decodeExperiment, encodeExperiment, LINK_VERSION } from '../../../src/config/urlState';

const token = (payload: unknown) => LZString.compressToEncodedURIComponent(JSON.stringify(payload));

describe('which settings can change while a run trains', () => {
  it('learning rates, entropy and clip coefficients, the swarm λ schedules and, in lockstep loops, the actors', () => {
    expect(liveSettingKeys(resolveExperiment('quickstart').settings).sort()).toEqual(['actors', 'reinforce.entCoef', 'reinforce.lr']);
    expect(liveSettingKeys(resolveExperiment('ppo-cartpole').settings).sort()).toEqual(['actors', 'ppo.clipCoef', 'ppo.entCoef', 'ppo.lr']);
    expect(liveSettingKeys(resolveExperiment('swarm-annealed').settings).sort()).toEqual([
      'swarm.entCoef',
      'swarm.lambda1',
      'swarm.lambda1Schedule',
      'swarm.lambda2',
      'swarm.lambda2Schedule',
      'swarm.lr',
    ]);
    expect(liveSettingKeys(resolveExperiment('maddpg-spread').settings).sort()).toEqual(['maddpg.actorLr', 'maddpg.criticLr']);
    // IMPALA's actors produce on their own: its pool keeps its size.
    expect(whyNotLive('actors', resolveExperiment('impala-cartpole').settings)).toMatch(/keeps its actors/);
    expect(whyNotLive('actors', resolveExperiment('ppo-cartpole-central').settings)).toMatch(/learner-side inference/);
    expect(whyNotLive('ppo.gamma', resolveExperiment('ppo-cartpole').settings)).toBe('fixed when the run starts');
  });
});

describe('a link carries the run’s live changes', () => {
  it('round-trips them at link version 4, in the order they apply', () => {
    const config = resolveExperiment('ppo-cartpole', { seed: 3 });
    const changes = [
      { update: 9, key: 'ppo.entCoef' as const, value: 0.02 },
      { update: 4, key: 'ppo.lr' as const, value: 3e-4 },
      { update: 4, key: 'actors' as const, value: 3 },
    ];
    const decoded = decodeExperiment(encodeExperiment(config, {}, changes));
    expect(LINK_VERSION).toBe(4);
    expect(decoded.ignored).toEqual([]);
    expect(decoded.config).toEqual(config);
    expect(decoded.changes).toEqual([changes[1], changes[2], changes[0]]);
  });

  it('validates each change like a setting and drops the bad ones with the reason, keeping the rest', () => {
    const decoded = decodeExperiment(
      token({
        v: 2,
        p: 'quickstart',
        c: [
          [3, 'reinforce.lr', 0.02],
          [4, 'reinforce.lr', 7],
          [5, 'model.hidden', 16],
          [0, 'reinforce.entCoef', 0.01],
          [6, 'nope', 1],
        ],
      }),
    );
    expect(decoded.changes).toEqual([{ update: 3, key: 'reinforce.lr', value: 0.02 }]);
    expect(decoded.ignored.map((p) => p.field)).toEqual(['change.reinforce.lr', 'change.model.hidden', 'change.reinforce.entCoef', 'change.nope']);
    expect(decoded.ignored[0].reason).toMatch(/must be a number in/);
    expect(decoded.ignored[1].reason).toMatch(/cannot change while training/);
    expect(decoded.ignored[2].reason).toMatch(/update must be an integer from 1/);
  });

  it('links made before changes existed open with none (version-1 fixtures)', () => {
    const links = (JSON.parse(readFileSync(new URL('./fixtures/links-v1.json', import.meta.url), 'utf8')) as { links: { token: string; preset: string }[] }).links;
    expect(links.length).toBeGreaterThan(0);
    for (const l of links) {
      const decoded = decodeExperiment(l.token);
      // A link to a retired first-swarm preset says so (oldLinks.test.ts); nothing else is ignored.
      expect(decoded.ignored.filter((i) => !/retired/.test(i.reason))).toEqual([]);
      expect(decoded.changes).toEqual([]);
    }
  });
});
