// LCP of the overview in headless Chromium, for `wm-bench lcp`.
//   node bench/lcp.mjs URL USERNAME PASSWORD RUNS [MBITS RTT_MS]
// Each run is a fresh profile (a cold cache) with a signed-in session, as an
// operator opening the dashboard in the morning; with MBITS and RTT_MS, over
// a line that slow (Chromium's network emulation), so the bytes on the wire
// count. Prints the LCPs in ms as JSON.
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const require = createRequire(new URL('../web/package.json', import.meta.url));
const { chromium } = require('playwright-core');

const [url, username, password, runs, mbits, rtt] = process.argv.slice(2);
const executablePath = process.env.WM_E2E_CHROMIUM ?? '/usr/bin/chromium';
const args = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

const lcps = [];
for (let run = 0; run < Number(runs); run += 1) {
  const profile = mkdtempSync(join(tmpdir(), 'wmeter-lcp-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath, headless: true, args, baseURL: url, viewport: { width: 1440, height: 900 },
  });
  try {
    const signedIn = await context.request.post('/api/auth/login', { data: { username, password } });
    if (!signedIn.ok()) throw new Error(`sign-in: ${signedIn.status()}`);
    const page = context.pages()[0] ?? (await context.newPage());
    if (mbits) {
      const cdp = await context.newCDPSession(page);
      const bytesPerSecond = (Number(mbits) * 1e6) / 8;
      await cdp.send('Network.enable');
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false, latency: Number(rtt), downloadThroughput: bytesPerSecond, uploadThroughput: bytesPerSecond,
      });
    }
    await page.goto('/', { waitUntil: 'networkidle' });
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    const lcp = await page.evaluate(() => new Promise((resolve) => {
      new PerformanceObserver((list) => {
        const entries = list.getEntries();
        resolve(entries[entries.length - 1].startTime);
      }).observe({ type: 'largest-contentful-paint', buffered: true });
    }));
    lcps.push(lcp);
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
}
console.log(JSON.stringify(lcps));
