/**
 * Opens a bare WebGL context and posts its renderer's name (null when there is none). It runs in a
 * throwaway worker because opening the context is synchronous and, on a software renderer, can
 * block for seconds; the caller stops waiting and terminates it (see backendProbe.ts).
 */
function rendererName(): string | null {
  try {
    const canvas = new OffscreenCanvas(1, 1);
    const gl = canvas.getContext('webgl2') ?? canvas.getContext('webgl');
    if (!gl) return null;
    const ext = gl.getExtension('WEBGL_debug_renderer_info');
    const name = String(gl.getParameter(ext ? ext.UNMASKED_RENDERER_WEBGL : gl.RENDERER));
    gl.getExtension('WEBGL_lose_context')?.loseContext();
    return name;
  } catch {
    return null;
  }
}

postMessage(rendererName());
