import { describe, expect, it } from 'vitest';
import { lambdaEditorKeys } from '../../../src/ui/components/LambdaEditor';

describe('the λ schedule editor', () => {
  it("edits the swarm's λ1 and λ2 schedules, each setting once (the shared horizon is one field)", () => {
    const keys = lambdaEditorKeys();
    expect(keys).toEqual(expect.arrayContaining(['swarm2.lambda1', 'swarm2.lambda1Schedule', 'swarm2.lambda2', 'swarm2.lambda2Schedule', 'swarm2.annealUpdates']));
    expect(new Set(keys).size).toBe(keys.length);
  });
});
