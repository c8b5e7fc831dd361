'use strict';
/*
 * The heatmap page in a real browser: a JVM runs a burst of one function at a known time (HeatmapWorkload),
 * profiled twice: into a JFR recording that jfrconv -o heatmap turns into the page, and by the agent writing
 * the page itself (heatmap,file=x.html). In both, the strip's densest cell must overlap the burst, clicking it
 * must show a flame graph that burst() dominates, and a cell before the burst must show none of it.
 */
const { test, before, after } = require('node:test');
const assert = require('node:assert');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { execFile } = require('child_process');
const { promisify } = require('util');

const run = promisify(execFile);
const { launchChromium, openOffline } = require('./chromium');

function env(name) {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set: run the browser tests through ctest (./build.sh test)`);
  return v;
}

const OUT = process.env.BROWSER_OUT || path.join(os.tmpdir(), 'libprof-heatmap');
const BURST = 'HeatmapWorkload.burst';
let context;
const pages = {};

/* The workload under the agent with 'options'; when its burst was (ms since the epoch). */
async function burstRun(options) {
  const agent = `${env('LIBPROF_SO')}=start,event=cpu,interval=2ms,${options}`;
  const { stdout } = await run(env('JAVA'), [`-agentpath:${agent}`, '-cp', env('BROWSER_CLASSES'), 'HeatmapWorkload',
                                             '4', '1.5', '1.5']);
  const m = /burst (\d+) (\d+)/.exec(stdout);
  assert.ok(m, `the workload said when its burst was: ${stdout}`);
  return { from: Number(m[1]), to: Number(m[2]) };
}

before(async () => {
  fs.rmSync(OUT, { recursive: true, force: true });
  fs.mkdirSync(OUT, { recursive: true });
  const jfr = path.join(OUT, 'burst.jfr'), converted = path.join(OUT, 'converted.html');
  const direct = path.join(OUT, 'agent.html');
  const [fromJfr, fromAgent] = await Promise.all([burstRun(`file=${jfr}`), burstRun(`heatmap,file=${direct}`)]);
  await run(env('JFRCONV'), ['-o', 'heatmap', jfr, converted]);
  pages.jfrconv = { file: converted, burst: fromJfr };
  pages.agent = { file: direct, burst: fromAgent };
  context = await launchChromium();
});

after(async () => { if (context) await context.close(); });

for (const kind of ['jfrconv', 'agent']) {
  test(`${kind}: the densest second is the burst, and its flame graph is burst()`, () => checkBurst(pages[kind]));
}

async function checkBurst({ file, burst }) {
  const page = await openOffline(context, file);
  const hm = await page.evaluate(() => !!window.libprof.heatmap);
  assert.ok(hm, 'the page has a heatmap');
  await page.evaluate(() => window.libprof.heatmap.setScale(1000));
  const { cells, startMs } = await page.evaluate(() => ({ cells: window.libprof.heatmap.cells(),
                                                          startMs: window.libprof.heatmap.startMs }));
  assert.ok(cells.length >= 4 && cells.length <= 7, `a 4 s recording at 1 s cells: ${cells.length} cells`);
  let densest = 0;
  cells.forEach((c, i) => { if (c.samples > cells[densest].samples) densest = i; });
  /* The burst (1.5 s) need not line up with the 1 s cells: on a busy machine a cell holding part of it can
   * be the densest, so the densest cell must overlap the burst. */
  const from = startMs + cells[densest].fromMs, to = startMs + cells[densest].toMs;
  assert.ok(from < burst.to && to > burst.from,
            `the densest cell (${densest}: ${JSON.stringify(cells[densest])}, from ${from - burst.from} ms after the ` +
            `burst's start) overlaps the burst (${burst.to - burst.from} ms long); cells ` +
            `${JSON.stringify(cells.map((c) => c.samples))}`);

  /* A click on the densest cell, as a person would. */
  const at = await page.evaluate((i) => window.libprof.heatmap.cellCentre(i), densest);
  await page.mouse.click(at.x, at.y);
  assert.deepStrictEqual(await page.evaluate(() => window.libprof.heatmap.selection()), [densest, densest]);
  const inBurst = await page.evaluate((n) => window.libprof.heatmap.frameShare(n), BURST);
  assert.ok(inBurst.value > 0.5 * inBurst.total, `burst() dominates its second: ${JSON.stringify(inBurst)}`);
  assert.ok(await page.evaluate((n) => window.libprof.frameRect(n), BURST), 'burst() is drawn');
  const rangeText = await page.textContent('#range');
  assert.match(rangeText, /^Range: /);

  /* A cell wholly before the burst: the main thread's light work only. */
  const before = cells.findIndex((c) => startMs + c.toMs < burst.from && c.samples > 0);
  assert.ok(before >= 0, `a cell with samples before the burst: ${JSON.stringify(cells)}`);
  const b = await page.evaluate((i) => window.libprof.heatmap.cellCentre(i), before);
  await page.mouse.click(b.x, b.y);
  const quiet = await page.evaluate((n) => window.libprof.heatmap.frameShare(n), BURST);
  assert.strictEqual(quiet.value, 0, `no burst() before the burst: ${JSON.stringify(quiet)}`);
  assert.ok(quiet.total > 0, 'the quiet cell has samples of its own');
  assert.ok((await page.evaluate(() => window.libprof.heatmap.frameShare('HeatmapWorkload.steady'))).value > 0,
            'the quiet cell shows the steady work');

  /* A drag over two cells selects both; "Whole recording" goes back to everything. */
  const first = await page.evaluate(() => window.libprof.heatmap.cellCentre(0));
  const third = await page.evaluate(() => window.libprof.heatmap.cellCentre(2));
  await page.mouse.move(first.x, first.y);
  await page.mouse.down();
  await page.mouse.move(third.x, third.y, { steps: 5 });
  await page.mouse.up();
  assert.deepStrictEqual(await page.evaluate(() => window.libprof.heatmap.selection()), [0, 2]);
  await page.click('#whole');
  assert.strictEqual(await page.evaluate(() => window.libprof.heatmap.selection()), null);
  const all = await page.evaluate((n) => window.libprof.heatmap.frameShare(n), BURST);
  const sum = cells.reduce((x, c) => x + c.samples, 0);
  assert.strictEqual(all.total, sum, 'the whole recording holds every sample of the strip');
  await page.done();
}
