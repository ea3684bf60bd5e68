import { defineConfig } from '@playwright/test';

// Debian's Chromium, never a downloaded browser. The SwiftShader flags give it WebGPU without a GPU.
const executablePath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const quiet = [
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
];
const webgpu = [
  '--enable-unsafe-webgpu',
  '--enable-features=Vulkan',
  '--use-vulkan=swiftshader',
  '--use-webgpu-adapter=swiftshader',
  '--use-angle=swiftshader',
];
// E2E_PORT lets two checkouts run their end-to-end tests side by side; the default is the preview server's own port.
const port = Number(process.env.E2E_PORT) || 4173;

export default defineConfig({
  testDir: '.',
  outputDir: './artifacts/results',
  timeout: 120_000,
  expect: { timeout: 30_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    headless: true,
    viewport: { width: 1280, height: 800 },
  },
  projects: [
    {
      name: 'webgpu',
      grepInvert: /@no-webgpu/,
      use: { launchOptions: { executablePath, args: [...quiet, ...webgpu] } },
    },
    {
      name: 'no-webgpu',
      grep: /@no-webgpu/,
      use: { launchOptions: { executablePath, args: [...quiet, '--disable-gpu', '--disable-software-rasterizer'] } },
    },
  ],
  webServer: {
    command: `npx vite preview --host 127.0.0.1 --port ${port} --strictPort`,
    cwd: '../..',
    url: `http://127.0.0.1:${port}`,
    reuseExistingServer: false,
    timeout: 60_000,
  },
});
