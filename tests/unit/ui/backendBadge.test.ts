import { describe, expect, it } from 'vitest';
import { backendReasonText } from '../../../src/ui/components/BackendBadge';

describe('backendReasonText', () => {
  it('says a backend chosen by hand was chosen by hand, with a software adapter named', () => {
    const text = backendReasonText({
      reason: 'webgpu: preferred',
      attempts: [{ name: 'webgpu', ok: true, detail: 'webgpu: software adapter (google swiftshader) found: it runs on the CPU' }],
    });
    expect(text).toMatch(/^webgpu: chosen by hand under Learner backend \(webgpu: software adapter \(google swiftshader\) found/);
    expect(text).not.toContain('preferred');
  });

  it('keeps a measured reason as it is', () => {
    const reason = 'wasm: 38x faster than webgpu here (4.00 ms against 152 ms per update of this network)';
    expect(backendReasonText({ reason, attempts: [] })).toBe(reason);
  });

  it('says when the backend chosen by hand is not there', () => {
    expect(backendReasonText({ reason: 'wasm: preferred webgpu unavailable (webgpu: no adapter)', attempts: [] })).toBe('wasm: webgpu was chosen by hand but is not available here (webgpu: no adapter)');
  });
});
