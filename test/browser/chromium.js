'use strict';
/*
 * The browser tests' chromium: Debian's, headless through playwright-core (DESIGN.md's launch flags), and
 * pages opened from disk that must load offline without errors. Shared by html.test.js and diff.test.js.
 */
const assert = require('node:assert');
const fs = require('fs');
const os = require('os');
const path = require('path');

const CHROMIUM = '/usr/bin/chromium';

/* A fresh headless chromium (a throw-away profile directory), 1200x800. */
async function launchChromium() {
  if (!fs.existsSync(CHROMIUM)) {
    throw new Error(`chromium is not installed at ${CHROMIUM}: the browser tests cannot run ` +
                    '(run ./build.sh test as root, or apt-get install chromium)');
  }
  let chromium;
  try {
    ({ chromium } = require('playwright-core'));
  } catch (e) {
    throw new Error('playwright-core is missing from test/browser/node_modules: run ./build.sh test, which ' +
                    'installs it with npm ci (' + e.message + ')');
  }
  return chromium.launchPersistentContext(fs.mkdtempSync(path.join(os.tmpdir(), 'libprof-chromium-')), {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1200, height: 800 },
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
           '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}

/* Opens 'file' in a new page, recording console errors, page errors and every request but the page itself;
   page.problems lists them, page.done() closes the page and asserts there were none. */
async function openOffline(context, file) {
  const page = await context.newPage();
  const url = 'file://' + file;
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error') problems.push('console error: ' + m.text()); });
  page.on('pageerror', (e) => problems.push('page error: ' + e.message));
  page.on('request', (r) => { if (r.url() !== url) problems.push('request: ' + r.url()); });
  await page.goto(url);
  page.problems = problems;
  page.done = async () => {
    await page.close();
    assert.deepStrictEqual(problems, [], 'the page must load offline without errors');
  };
  return page;
}

module.exports = { CHROMIUM, launchChromium, openOffline };
