import { chromium } from '@playwright/test';
import LZString from 'lz-string';
import { spawn } from 'node:child_process';
const srv = spawn('npx', ['vite','preview','--host','127.0.0.1','--port','4188','--strictPort'], { stdio: 'ignore', detached: true, cwd: '/work/main' });
await new Promise(r => setTimeout(r, 2500));
const FLAGS = ['--no-sandbox','--disable-background-networking','--disable-component-update','--disable-sync','--disable-quic','--no-first-run','--enable-unsafe-webgpu','--enable-features=Vulkan','--use-vulkan=swiftshader','--use-webgpu-adapter=swiftshader','--use-angle=swiftshader'];
const b = await chromium.launch({ executablePath: '/usr/bin/chromium', args: FLAGS });
const page = await b.newPage({ viewport: { width: 1280, height: 800 } });
page.on('console', m => console.log('console.'+m.type(), m.text().slice(0,300)));
page.on('pageerror', e => console.log('pageerror', e.message));
const s = JSON.parse(process.argv[2] ?? '{}');
const tok = LZString.compressToEncodedURIComponent(JSON.stringify({ v: 1, p: process.argv[3] ?? 'swarm-annealed', s, ui: { a: true } }));
await page.goto(`http://127.0.0.1:4188/#x=${tok}`);
const t0 = Date.now();
for (let i = 0; i < Number(process.argv[4] ?? 40); i++) {
  await page.waitForTimeout(3000);
  const st = await page.getByTestId('status').textContent().catch(() => '?');
  const pts = await page.evaluate(() => [...document.querySelectorAll('[data-points]')].map(e => e.dataset.testid + ':' + e.dataset.points).join(' '));
  const notices = await page.getByTestId('notices').textContent().catch(() => '');
  console.log(((Date.now()-t0)/1000).toFixed(0)+'s', st, pts, '| trace:', await page.locator('[data-testid=swarm-timeline]').count(), '|', notices.slice(0,300));
  if (st === 'done' || st === 'error') break;
}
await page.screenshot({ path: '/tmp/probe/swarm.png', fullPage: true });
await b.close(); process.kill(-srv.pid);
