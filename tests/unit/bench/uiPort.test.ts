// `npm run bench -- ui --port N` serves the app on N, so that two checkouts can measure side by side.
import { describe, expect, it } from 'vitest';
import { portOf } from '../../../bench/ui';

describe('ui bench --port', () => {
  it('the mode keeps its own default without the flag', () => {
    expect(portOf({}, 4181)).toBe(4181);
  });

  it('serves on the port given', () => {
    expect(portOf({ port: '4205' }, 4181)).toBe(4205);
  });

  it('refuses what is not a port, in one line', () => {
    expect(() => portOf({ port: 'abc' }, 4181)).toThrow(/--port takes a port number/);
    expect(() => portOf({ port: '80' }, 4181)).toThrow(/--port takes a port number/);
  });
});
