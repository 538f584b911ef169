// BROWSER for the end-to-end login test: opens the address in a real headless Chromium (Debian's, driven by
// playwright-core), picks sandbox user $DRIVER_USER, allows consent, and waits for the CLI's callback page.
import { appendFileSync } from 'node:fs';
import { chromium } from 'playwright-core';

const url = process.argv[2];
const report = (line) => process.env.DRIVER_REPORT && appendFileSync(process.env.DRIVER_REPORT, `${line}\n`);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});
try {
  const page = await browser.newPage();
  await page.goto(url);
  await page.click(`button[data-user="${process.env.DRIVER_USER ?? '1'}"]`);
  await page.click(process.env.DRIVER_DECISION === 'deny' ? '#consent-deny' : '#consent-allow');
  await page.waitForURL(/^http:\/\/127\.0\.0\.1:\d+\/callback/);
  await page.waitForSelector('h1');
  report(`${page.url()} ${await page.textContent('h1')}`);
} catch (error) {
  report(`driver error: ${error.message}`);
  process.exitCode = 1;
} finally {
  await browser.close();
  // Said once Chromium is gone and playwright has removed its profile: a test waits for this before it ends.
  report('closed');
}
