import LZString from 'lz-string';

const { compressToEncodedURIComponent } = LZString;
import { describe, expect, it } from 'vitest';
import { resolveExperiment } from '../../../src/config/config';
import { PRESETS } from '../../../src/config/presets';
import { SETTINGS, SETTING_KEYS, type Setting } from '../../../src/config/settings';
import { decodeExperiment, encodeExperiment, experimentUrl, LINK_VERSION } from '../../../src/config/urlState';
import { Rng } from '../../../src/core/rng';

const token = (payload: unknown) => compressToEncodedURIComponent(JSON.stringify(payload));

describe('URL codec', () => {
  it('round-trips every preset, with and without changed settings and UI options', () => {
    for (const preset of PRESETS) {
      const plain = resolveExperiment(preset.name);
      expect(decodeExperiment(encodeExperiment(plain))).toEqual({ config: plain, ui: { autostart: false, hide: [] }, ignored: [], changes: [] });
      const changed = resolveExperiment(preset.name, { seed: 99, actors: 3 });
      const url = experimentUrl('https://example.org/app/?q=1#old', changed, { autostart: true, hide: ['config', 'seed'] });
      expect(url.startsWith('https://example.org/app/?q=1#x=')).toBe(true);
      const back = decodeExperiment(url);
      expect(back.config).toEqual(changed);
      expect(back.ui).toEqual({ autostart: true, hide: ['config', 'seed'] });
      expect(back.ignored).toEqual([]);
    }
  });

  it("leaves another algorithm's settings out of a link, and a tampered link that carries one loads without it, saying why", () => {
    const reinforce = resolveExperiment('quickstart');
    expect(reinforce.settings.algorithm).toBe('reinforce');
    const changed = resolveExperiment('quickstart', { seed: 4, 'swarm.lr': 0.001 });
    const back = decodeExperiment(encodeExperiment(changed));
    expect(back.config).toEqual(resolveExperiment('quickstart', { seed: 4 }));
    expect(back.ignored).toEqual([]);

    const tampered = decodeExperiment(token({ v: 4, p: 'quickstart', s: { seed: 4, 'swarm.lr': 0.001, 'reinforce.lr': 0.002 } }));
    expect(tampered.config).toEqual(resolveExperiment('quickstart', { seed: 4, 'reinforce.lr': 0.002 }));
    expect(tampered.ignored).toHaveLength(1);
    expect(tampered.ignored[0].field).toBe('swarm.lr');
    expect(tampered.ignored[0].reason).toMatch(/not of this run's algorithm \(REINFORCE\)/);
  });

  it('drops a setting whose combination with the others cannot run (DQN on a continuous-action env), and keeps the rest', () => {
    const dqn = PRESETS.find((p) => p.settings.algorithm === 'dqn');
    if (!dqn) throw new Error('no DQN preset');
    const decoded = decodeExperiment(token({ v: 2, p: dqn.name, s: { seed: 8, 'env.id': 'Pendulum-v1' } }));
    expect(decoded.config).toEqual(resolveExperiment(dqn.name, { seed: 8 }));
    expect(decoded.ignored.map((i) => i.field)).toEqual(['env.id']);
    expect(decoded.ignored[0].reason).toMatch(/discrete actions/);
    const switched = decodeExperiment(token({ v: 2, p: 'ddpg-pendulum', s: { algorithm: 'dqn', seed: 8 } }));
    expect(switched.config.settings.algorithm).not.toBe('dqn');
    expect(switched.config.settings.seed).toBe(8);
    expect(switched.ignored.map((i) => i.field)).toEqual(['algorithm']);
  });

  it('lists what a tampered link loses and loads the rest', () => {
    const decoded = decodeExperiment(
      token({ v: 1, p: 'quickstart', s: { seed: 5, actors: 1000, 'no.such': 1, 'env.id': 'Pong' }, ui: { h: ['config', 'bogus'] } }),
    );
    expect(decoded.config.settings.seed).toBe(5);
    expect(decoded.config.settings.actors).toBe(resolveExperiment('quickstart').settings.actors);
    expect(decoded.ignored.map((i) => i.field).sort()).toEqual(['actors', 'env.id', 'hide.bogus', 'no.such']);
    expect(decoded.ignored.find((i) => i.field === 'actors')?.reason).toMatch(/\[1, 16\]/);
    expect(decoded.ui.hide).toEqual(['config']);
  });

  it('falls back to the default experiment on garbage, with a reason', () => {
    for (const bad of ['%%%', 'x=garbage', token('just a string'), token({ v: LINK_VERSION + 1, p: 'quickstart' }), 'x'.repeat(10_000)]) {
      const decoded = decodeExperiment(bad);
      expect(decoded.config).toEqual(resolveExperiment('quickstart'));
      expect(decoded.ignored.length).toBe(1);
      expect(decoded.ignored[0].field).toMatch(/^link/);
    }
    const unknownPreset = decodeExperiment(token({ v: 1, p: 'nope', s: { seed: 3 } }));
    expect(unknownPreset.config.preset).toBe('quickstart');
    expect(unknownPreset.config.settings.seed).toBe(3);
    expect(unknownPreset.ignored[0].field).toBe('preset');
  });

  it('fuzz: 4,000 random and mutated links never throw (npm run bench -- fuzz runs more), and every accepted setting is in bounds', () => {
    const rng = new Rng(2024);
    const good = PRESETS.map((p) => encodeExperiment(resolveExperiment(p.name, { seed: 11, actors: 4 }), { autostart: true }));
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+-$%#=&?';
    const wild = [1e308, -1e308, NaN, null, 'x', true, [], {}, 1.5, -1, 2 ** 40, '5'];
    const inBounds = (s: Setting, v: unknown) =>
      s.kind === 'enum' ? (s.options as readonly unknown[]).includes(v)
        : s.kind === 'bool' ? typeof v === 'boolean'
        : typeof v === 'number' && v >= s.min && v <= s.max && (s.kind !== 'int' || Number.isInteger(v));
    for (let i = 0; i < 4_000; i++) {
      let link: string;
      const mode = i % 3;
      if (mode === 0) {
        link = Array.from({ length: rng.int(200) }, () => alphabet[rng.int(alphabet.length)]).join('');
      } else if (mode === 1) {
        const chars = [...good[rng.int(good.length)]];
        for (let m = 0; m < 1 + rng.int(4); m++) chars[rng.int(chars.length)] = alphabet[rng.int(alphabet.length)];
        link = chars.join('');
      } else {
        const s: Record<string, unknown> = {};
        for (let k = 0; k < rng.int(6); k++) {
          const key = rng.uniform() < 0.8 ? SETTING_KEYS[rng.int(SETTING_KEYS.length)] : `junk${rng.int(9)}`;
          s[key] = rng.uniform() < 0.5 ? wild[rng.int(wild.length)] : rng.uniformRange(-1e7, 1e7);
        }
        link = token({ v: rng.uniform() < 0.9 ? 1 : rng.int(5), p: rng.uniform() < 0.9 ? 'quickstart' : 'zzz', s, ui: { a: rng.uniform() < 0.5, h: ['config', 'x'] } });
      }
      const { settings } = decodeExperiment(link).config;
      // One assertion per link (not per key): the check is the same, and a thousand expect calls a link made the test crawl under load.
      const outOfBounds = SETTING_KEYS.filter((key) => !inBounds(SETTINGS[key] as Setting, settings[key])).map((key) => `${key}=${String(settings[key])}`);
      expect(outOfBounds, `from ${link}`).toEqual([]);
    }
  }, 600_000); // a generous limit, not a speed bound

  it("ignores a setting or hidden item named like an object's own method (toString, __proto__), with its reason, and loads the rest", () => {
    for (const v of [1, LINK_VERSION]) {
      for (const name of ['toString', 'constructor', '__proto__', 'hasOwnProperty', 'valueOf']) {
        const text = `{"v":${v},"p":"quickstart","s":{"${name}":1,"seed":4},"ui":{"h":["${name}","seed"]}}`;
        const decoded = decodeExperiment(compressToEncodedURIComponent(text));
        expect(decoded.config).toEqual(resolveExperiment('quickstart', { seed: 4 }));
        expect(decoded.ui.hide).toEqual(['seed']);
        expect(decoded.ignored.map((p) => p.field)).toEqual([name, `hide.${name}`]);
        expect(decoded.ignored[0].reason).toMatch(/^unknown setting/);
      }
    }
  });
});
