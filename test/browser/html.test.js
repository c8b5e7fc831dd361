'use strict';
/*
 * Browser tests of the HTML outputs (flame graph and call tree), run by ctest (test/browser/tests.cmake).
 * Pages come from a real profiled JVM (the agent writes them) and from synthetic collapsed stacks with
 * known figures (rendered by render_profile through the agent's own writer). Each page is opened from disk
 * in headless chromium and used as a person would: hover, search, click, toggles, expanding the tree.
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

const OUT = process.env.BROWSER_OUT || path.join(os.tmpdir(), 'libprof-browser');
const SYNTHETIC = [
  '[main tid=1];Main.main;Main.work;Main.hot 60',
  '[main tid=1];Main.main;Main.work;Main.cold 30',
  '[main tid=1];Main.main;Main.idle;read;sys_read_[k] 10',
].join('\n') + '\n';

let context;
const page_files = {};

async function render(collapsed, name, options) {
  const file = path.join(OUT, name);
  await run(env('RENDER_PROFILE'), [collapsed, `file=${file},${options}`]);
  return file;
}

async function profileJvm(file, extra) {
  const agent = `${env('LIBPROF_SO')}=start,event=cpu,interval=1ms,file=${file}${extra}`;
  await run(env('JAVA'), [`-agentpath:${agent}`, '-cp', env('BROWSER_CLASSES'), 'FlameWorkload', '2']);
  assert.ok(fs.existsSync(file), `the agent wrote no ${file}`);
  return file;
}

before(async () => {
  fs.rmSync(OUT, { recursive: true, force: true });
  fs.mkdirSync(OUT, { recursive: true });
  const syn = path.join(OUT, 'synthetic.collapsed');
  fs.writeFileSync(syn, SYNTHETIC);
  const realCollapsed = path.join(OUT, 'real.collapsed');
  const big = path.join(OUT, 'weights.collapsed');
  fs.writeFileSync(big, 'Main.main;Main.sleep 2500000000\nMain.main;Main.tick 1500000000\n');
  const deep = path.join(OUT, 'deep.collapsed');
  const frames = Array.from({ length: 3000 }, (_, i) => `Deep.f${i}`);
  fs.writeFileSync(deep, `${frames.join(';')} 5\nDeep.f0;Shallow.g 5\n`);
  const empty = path.join(OUT, 'empty.collapsed');
  fs.writeFileSync(empty, '');
  const ann = path.join(OUT, 'ann.collapsed');
  fs.writeFileSync(ann, 'Main.main_[0];Main.run_[j];Main.inl_[i];Main.warm_[1];write;sys_write_[k] 4\n');
  const [, , , , , , , , , realHtml] = await Promise.all([
    render(ann, 'ann.html', 'flamegraph'),
    render(empty, 'empty.html', 'tree'),
    render(deep, 'deep.html', 'title=Deep'),
    render(big, 'weights.html', 'total'),
    render(syn, 'synthetic.html', 'title=Synthetic'),
    render(syn, 'synthetic-start.html', 'flamegraph,reverse,inverted'),
    render(syn, 'synthetic-tree.html', 'tree'),
    render(syn, 'synthetic-minwidth.html', 'minwidth=15'),
    profileJvm(realCollapsed, ''),
    profileJvm(path.join(OUT, 'real.html'), ',threads,title=FlameWorkload on a real JVM'),
  ]);
  Object.assign(page_files, {
    syn: path.join(OUT, 'synthetic.html'),
    synStart: path.join(OUT, 'synthetic-start.html'),
    synTree: path.join(OUT, 'synthetic-tree.html'),
    synMinwidth: path.join(OUT, 'synthetic-minwidth.html'),
    weights: path.join(OUT, 'weights.html'),
    deep: path.join(OUT, 'deep.html'),
    empty: path.join(OUT, 'empty.html'),
    ann: path.join(OUT, 'ann.html'),
    realHtml,
    realCollapsed,
    realTree: await render(realCollapsed, 'real-tree.html', 'tree'),
  });
  context = await launchChromium();
});

after(async () => {
  if (context) await context.close();
});

/* Opens a page from disk (chromium.js: offline, without errors) and waits for its first drawing. */
async function open(file) {
  const page = await openOffline(context, file);
  const problems = page.problems;
  try {
    await page.waitForFunction(() => window.libprof && window.libprof.firstDrawMs > 0, null, { timeout: 15000 });
  } catch (e) {
    throw new Error(`${file} did not draw: ${problems.join('; ') || e.message}`);
  }
  return page;
}

const frameRect = (page, name) => page.evaluate((n) => window.libprof.frameRect(n), name);
const canvasImage = (page) => page.evaluate(() => document.getElementById('canvas').toDataURL());

/* The middle of a drawn frame, scrolled to the middle of the window first (deep real stacks make the
   canvas taller than the window). */
async function frameCentre(page, name) {
  let r = await frameRect(page, name);
  assert.ok(r, `frame ${name} is drawn`);
  await page.evaluate((y) => window.scrollBy(0, y - window.innerHeight / 2), r.y);
  r = await frameRect(page, name);
  return [r.x + r.w / 2, r.y + r.h / 2];
}

async function clickFrame(page, name) {
  await page.mouse.click(...await frameCentre(page, name));
}

async function hover(page, name) {
  await page.mouse.move(...await frameCentre(page, name));
  assert.ok(await page.isVisible('#tooltip'), 'the tooltip shows');
  return page.textContent('#tooltip');
}

/* Pixels of the search highlight colour on the canvas. */
const matchPixels = (page) => page.evaluate(() => {
  const c = document.getElementById('canvas');
  const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
  let n = 0;
  for (let i = 0; i < d.length; i += 4) if (d[i] === 0xe0 && d[i + 1] === 0x40 && d[i + 2] === 0xe0) n++;
  return n;
});

async function search(page, text) {
  await page.fill('#search', text);
  return page.textContent('#matched');
}

test('flame graph: title, legend and hover tooltip with value, % of total and % of parent', async () => {
  const page = await open(page_files.syn);
  assert.strictEqual(await page.title(), 'Synthetic');
  assert.strictEqual(await page.textContent('#title'), 'Synthetic');
  const legend = await page.textContent('#legend');
  for (const label of ['Java', 'Native', 'Kernel', 'Thread']) assert.match(legend, new RegExp(label));
  const tip = await hover(page, 'Main.hot');
  assert.match(tip, /^Main\.hot\n/);
  assert.match(tip, /Total: 60 samples \(60\.00% of all, 66\.67% of parent\)/);
  assert.match(tip, /Self: 60 samples \(60\.00%\)/);
  assert.match(tip, /Type: Java/);
  const box = await page.locator('#hover').boundingBox();
  const hot = await frameRect(page, 'Main.hot');
  assert.ok(box && Math.abs(box.x - hot.x) <= 2 && Math.abs(box.width - hot.w) <= 3, 'the hovered frame is outlined');
  assert.match(await hover(page, 'sys_read_[k]'), /Total: 10 samples \(10\.00% of all, 100\.00% of parent\)[^]*Type: Kernel/);
  assert.match(await hover(page, '[main tid=1]'), /Type: Thread/);
  await page.done();
});

test('flame graph: with total, weights are shown in their unit, with a readable size', async () => {
  const page = await open(page_files.weights);
  assert.match(await hover(page, 'Main.sleep'), /Total: 2,500,000,000 ns \(2\.50 s\) \(62\.50% of all, 62\.50% of parent\)/);
  assert.match(await hover(page, 'Main.main'), /Total: 4,000,000,000 ns \(4\.00 s\) \(100\.00% of all/);
  assert.match(await page.textContent('#summary'), /4,000,000,000 ns \(4\.00 s\)/);
  await page.done();
});

test('flame graph: search by substring and /regex/ highlights matches and reports their share', async () => {
  const page = await open(page_files.syn);
  assert.strictEqual(await matchPixels(page), 0);
  assert.strictEqual(await search(page, 'hot'), 'Matched: 60.00% (60 samples)');
  const hotOnly = await matchPixels(page);
  assert.ok(hotOnly > 0, 'matches are highlighted');
  assert.strictEqual(await search(page, '/^Main\\.(hot|cold)$/'), 'Matched: 90.00% (90 samples)');
  assert.ok(await matchPixels(page) > hotOnly, 'more matches, more highlight');
  /* Nested matches count once: Main.main contains everything below it. */
  assert.strictEqual(await search(page, 'Main.'), 'Matched: 100.00% (100 samples)');
  await search(page, '/(/');
  assert.ok(await page.evaluate(() => document.getElementById('search').classList.contains('bad')));
  assert.strictEqual(await search(page, ''), '');
  assert.strictEqual(await matchPixels(page), 0);
  /* Ctrl+F goes to the profile's search box. */
  await page.click('#title');
  await page.keyboard.press('Control+f');
  await page.keyboard.type('cold');
  assert.strictEqual(await page.textContent('#matched'), 'Matched: 30.00% (30 samples)');
  await page.done();
});

test('flame graph: click zooms into a frame, reset and Escape go back', async () => {
  const page = await open(page_files.syn);
  const before = await canvasImage(page);
  const width = await page.evaluate(() => document.getElementById('canvas').getBoundingClientRect().width);
  const hotBefore = await frameRect(page, 'Main.hot');
  assert.ok(Math.abs(hotBefore.w - width * 0.6) < 2, `Main.hot is 60% wide (${hotBefore.w} of ${width})`);
  await clickFrame(page, 'Main.work');
  assert.strictEqual(await page.textContent('#zoomed'), 'Zoomed: Main.work');
  assert.notStrictEqual(await canvasImage(page), before, 'zooming changes the drawing');
  const hotZoomed = await frameRect(page, 'Main.hot');
  assert.ok(Math.abs(hotZoomed.w - width * 60 / 90) < 2, `zoomed Main.hot is 60/90 wide (${hotZoomed.w})`);
  assert.strictEqual(await frameRect(page, 'Main.idle'), null, 'frames outside the zoom are not drawn');
  await page.click('#reset');
  assert.strictEqual(await canvasImage(page), before, 'reset restores the whole profile');
  assert.strictEqual(await page.textContent('#zoomed'), '');
  await clickFrame(page, 'Main.work');
  await page.keyboard.press('Escape');
  assert.strictEqual(await canvasImage(page), before, 'Escape restores the whole profile');
  await page.done();
});

test('flame graph: reverse merges from the leaf, inverted draws an icicle', async () => {
  const page = await open(page_files.syn);
  const before = await canvasImage(page);
  const canvasTop = await page.evaluate(() => document.getElementById('canvas').getBoundingClientRect().top);
  assert.ok((await frameRect(page, 'all')).y > canvasTop, 'a flame graph has its root at the bottom');
  assert.strictEqual((await frameRect(page, 'Main.hot')).depth, 4);
  await page.check('#reverse');
  assert.notStrictEqual(await canvasImage(page), before);
  assert.strictEqual((await frameRect(page, 'Main.hot')).depth, 1, 'reversed: leaves sit on the root');
  assert.strictEqual((await frameRect(page, 'sys_read_[k]')).depth, 1);
  assert.match(await hover(page, 'Main.hot'), /Total: 60 samples \(60\.00% of all, 60\.00% of parent\)/);
  await page.uncheck('#reverse');
  assert.strictEqual(await canvasImage(page), before);
  await page.check('#inverted');
  assert.strictEqual((await frameRect(page, 'all')).y, canvasTop, 'inverted: the root is at the top');
  assert.notStrictEqual(await canvasImage(page), before);
  await page.done();
});

test('flame graph: reverse and inverted options choose the start state', async () => {
  const page = await open(page_files.synStart);
  assert.ok(await page.isChecked('#reverse'));
  assert.ok(await page.isChecked('#inverted'));
  const canvasTop = await page.evaluate(() => document.getElementById('canvas').getBoundingClientRect().top);
  assert.strictEqual((await frameRect(page, 'all')).y, canvasTop);
  assert.strictEqual((await frameRect(page, 'Main.hot')).depth, 1);
  await page.done();
});

test('flame graph: minwidth leaves narrow frames out of the file', async () => {
  const html = fs.readFileSync(page_files.synMinwidth, 'utf8');
  assert.ok(!html.includes('Main.idle') && !html.includes('sys_read'), 'frames under 15% are not written');
  const page = await open(page_files.synMinwidth);
  assert.strictEqual(await frameRect(page, 'Main.idle'), null);
  assert.match(await hover(page, 'Main.main'), /Total: 100 samples \(100\.00% of all/);
  assert.match(await page.textContent('#summary'), /frames under 15% omitted/);
  await page.done();
});

test('flame graph: annotated frames (ann) are coloured and labelled by their kind', async () => {
  const page = await open(page_files.ann);
  const legend = await page.textContent('#legend');
  for (const label of ['Java (JIT-compiled)', 'Java (inlined)', 'Java (interpreted)', 'Java (C1-compiled)',
                       'Native (C/C++)', 'Kernel']) assert.ok(legend.includes(label), `legend has ${label}`);
  assert.match(await hover(page, 'Main.main_[0]'), /Type: Java \(interpreted\)/);
  assert.match(await hover(page, 'Main.run_[j]'), /Type: Java \(JIT-compiled\)/);
  assert.match(await hover(page, 'Main.inl_[i]'), /Type: Java \(inlined\)/);
  assert.match(await hover(page, 'Main.warm_[1]'), /Type: Java \(C1-compiled\)/);
  const colours = await page.evaluate(() => {
    const c = document.getElementById('canvas').getContext('2d');
    return ['Main.main_[0]', 'Main.run_[j]', 'Main.inl_[i]', 'write'].map((n) => {
      const r = window.libprof.frameRect(n);
      const box = document.getElementById('canvas').getBoundingClientRect();
      const dpr = window.devicePixelRatio || 1;
      return Array.from(c.getImageData((r.x - box.left + r.w - 4) * dpr, (r.y - box.top + 2) * dpr, 1, 1).data).join();
    });
  });
  assert.strictEqual(new Set(colours).size, 4, `each kind has its own colour: ${colours.join(' | ')}`);
  await page.done();
});

test('an empty profile opens without errors in both views', async () => {
  const page = await open(page_files.empty);
  assert.match(await page.textContent('#summary'), /0 samples/);
  assert.deepStrictEqual(await treeRows(page), []);
  await page.click('#view-flame');
  await page.fill('#search', 'x');
  assert.strictEqual(await page.textContent('#matched'), 'Matched: 0.00% (0 samples)');
  await page.done();
});

test('flame graph and tree: a 3000-frame stack loads, draws its first 2000 levels, reverses', async () => {
  const page = await open(page_files.deep);
  assert.match(await hover(page, 'Deep.f0'), /Total: 10 samples \(100\.00% of all/);
  assert.ok(await frameRect(page, 'Deep.f1998'), 'deep frames are drawn');
  assert.strictEqual(await frameRect(page, 'Deep.f2500'), null, 'beyond 2000 levels frames are not drawn');
  await page.check('#reverse');
  assert.strictEqual((await frameRect(page, 'Deep.f2999')).depth, 1);
  await page.click('#view-tree');
  assert.strictEqual((await treeRows(page))[0].name, 'Deep.f2999');
  await page.done();
});

/* Totals and self values of every stack prefix of a collapsed file, keyed by the path "a;b;c". */
function collapsedFigures(text) {
  const figures = new Map();
  let grand = 0;
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    const at = line.lastIndexOf(' ');
    const value = Number(line.slice(at + 1));
    const frames = line.slice(0, at).split(';');
    grand += value;
    for (let i = 1; i <= frames.length; i++) {
      const key = frames.slice(0, i).join(';');
      const f = figures.get(key) || { total: 0, self: 0 };
      f.total += value;
      if (i === frames.length) f.self += value;
      figures.set(key, f);
    }
  }
  return { figures, grand };
}

const pct = (v, total) => (100 * v / total).toFixed(2) + '%';

async function expandAll(page) {
  for (let i = 0; i < 500; i++) {
    const closed = page.locator('#tree .row .toggle', { hasText: '\u25b8' });
    if (await closed.count() === 0) return;
    await closed.first().click();
  }
  assert.fail('the tree did not finish expanding');
}

/* The rows on screen, each with the path of names from the top of the tree. */
async function treeRows(page) {
  const rows = await page.$$eval('#tree .row:not(.head)', (els) => els.map((r) => ({
    depth: Number(r.dataset.depth),
    name: r.querySelector('.label').textContent,
    totalPct: r.querySelector('.total-pct').textContent,
    total: Number(r.querySelector('.total').textContent.replace(/,/g, '')),
    selfPct: r.querySelector('.self-pct').textContent,
    self: Number(r.querySelector('.self').textContent.replace(/,/g, '')),
    match: r.classList.contains('match'),
  })));
  const stack = [];
  for (const r of rows) {
    stack.length = r.depth - 1;
    stack.push(r.name);
    r.path = stack.join(';');
  }
  return rows;
}

async function assertTreeMatchesCollapsed(page, collapsedText) {
  const { figures, grand } = collapsedFigures(collapsedText);
  await expandAll(page);
  const rows = await treeRows(page);
  assert.strictEqual(rows.length, figures.size, 'one row per distinct stack prefix');
  for (const r of rows) {
    const f = figures.get(r.path);
    assert.ok(f, `row ${r.path} is a stack prefix of the collapsed output`);
    assert.deepStrictEqual([r.total, r.self, r.totalPct, r.selfPct],
                           [f.total, f.self, pct(f.total, grand), pct(f.self, grand)], r.path);
  }
  for (let i = 1; i < rows.length; i++) {
    if (rows[i].depth === rows[i - 1].depth) assert.ok(rows[i].total <= rows[i - 1].total, 'siblings by total');
  }
}

test('call tree: expands, sorted by total, percentages match the collapsed output', async () => {
  const page = await open(page_files.synTree);
  assert.ok(await page.isVisible('#tree'));
  assert.ok(!(await page.isVisible('#canvas')));
  await assertTreeMatchesCollapsed(page, SYNTHETIC);
  /* Collapsing hides the children again. */
  const before = (await treeRows(page)).length;
  await page.locator('#tree .row', { hasText: 'Main.work' }).locator('.toggle').click();
  assert.strictEqual((await treeRows(page)).length, before - 2);
  await page.done();
});

test('call tree: search opens and highlights matches, reverse gives backtraces', async () => {
  const page = await open(page_files.synTree);
  assert.strictEqual(await search(page, 'sys_read'), 'Matched: 10.00% (10 samples)');
  const rows = await treeRows(page);
  const hit = rows.find((r) => r.name === 'sys_read_[k]');
  assert.ok(hit && hit.match, 'the match deep in the tree is opened and highlighted');
  assert.strictEqual(rows.filter((r) => r.match).length, 1);
  await search(page, '');
  await page.check('#reverse');
  const back = await treeRows(page);
  const top = back.filter((r) => r.depth === 1).map((r) => [r.name, r.totalPct]);
  assert.deepStrictEqual(top, [['Main.hot', '60.00%'], ['Main.cold', '30.00%'], ['sys_read_[k]', '10.00%']]);
  /* Under the hottest leaf: its callers. */
  const callers = back.filter((r) => r.path.startsWith('Main.hot;')).map((r) => r.name);
  assert.deepStrictEqual(callers, ['Main.work', 'Main.main', '[main tid=1]']);
  await page.click('#view-flame');
  assert.ok(await page.isVisible('#canvas'));
  assert.strictEqual((await frameRect(page, 'Main.hot')).depth, 1);
  await page.done();
});

test('real JVM: the agent-written flame graph shows the workload, hot wider than cold', async () => {
  const page = await open(page_files.realHtml);
  assert.strictEqual(await page.title(), 'FlameWorkload on a real JVM');
  const share = (tip) => Number(/of all/.test(tip) && /\(([\d.]+)% of all/.exec(tip)[1]);
  const hot = await hover(page, 'FlameWorkload.hot');
  assert.match(hot, /^FlameWorkload\.hot\nTotal: \d[\d,]* samples/);
  const cold = await hover(page, 'FlameWorkload.cold');
  assert.ok(share(hot) > share(cold), `hot (${share(hot)}%) burns more than cold (${share(cold)}%)`);
  assert.ok(share(hot) > 20, 'the workload dominates the profile');
  /* With 'threads' the agent adds a thread frame under each stack, coloured as a thread. */
  assert.match(await page.textContent('#legend'), /Thread/);
  const thread = await page.evaluate(() => PROFILE.names.find((n) => /^\[main tid=\d+\]$/.test(n)));
  assert.ok(thread, 'the main thread has its frame');
  assert.match(await hover(page, thread), /Type: Thread/);
  const matched = await search(page, 'FlameWorkload.hot');
  assert.ok(Number(/([\d.]+)%/.exec(matched)[1]) >= share(hot), matched);
  const before = await canvasImage(page);
  await clickFrame(page, 'FlameWorkload.work');
  assert.notStrictEqual(await canvasImage(page), before);
  await page.done();
});

test('real JVM: the call tree of a real profile matches its collapsed output', async () => {
  const page = await open(page_files.realTree);
  await assertTreeMatchesCollapsed(page, fs.readFileSync(page_files.realCollapsed, 'utf8'));
  await page.done();
});
