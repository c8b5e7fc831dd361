'use strict';
/*
 * The viewer formats (pprof, speedscope, Chrome .cpuprofile, Firefox Gecko) opened by the real viewers'
 * own code and checked against the collapsed stacks of the same samples:
 *  - speedscope (npm package, test/browser/node_modules) in headless chromium: its importers read each file,
 *    then its own export (Ctrl+S) writes what it imported as speedscope JSON, from which the stacks and
 *    weights it shows are read back;
 *  - go tool pprof (Debian's golang-go) reads the .pb.gz with -raw.
 * Profiles: synthetic collapsed stacks with known figures (two threads, a failure marker, a native and a
 * kernel frame) and a real JVM's profile, each rendered through the agent's writers by render_profile.
 * Source files and lines: the agent writing each viewer format itself, and jfrconv converting the agent's
 * JFR recording, must show FlameWorkload.spin in FlameWorkload.java at the lines its source has; jfrconv's
 * .cpuprofile must give the samples in the recording's time order with its events' times (jfr print).
 */
const { test, before, after } = require('node:test');
const assert = require('node:assert');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { execFile } = require('child_process');
const { promisify } = require('util');

const run = promisify(execFile);
const CHROMIUM = '/usr/bin/chromium';
const OUT = (process.env.BROWSER_OUT || path.join(os.tmpdir(), 'libprof-browser')) + '-viewers';
const INTERVAL_MS = 1;   /* render_profile's interval=1ms: the timeline formats space samples by it */

function env(name) {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set: run the browser tests through ctest (./build.sh test)`);
  return v;
}

function speedscopeIndex() {
  const index = path.join(__dirname, 'node_modules', 'speedscope', 'dist', 'release', 'index.html');
  if (!fs.existsSync(index)) {
    throw new Error('speedscope is missing from test/browser/node_modules: run ./build.sh test, which installs it');
  }
  return index;
}

const SYNTHETIC = [
  '[main tid=1];Main.main;Main.work;Main.hot 60',
  '[main tid=1];Main.main;Main.work;Main.cold 30',
  '[main tid=1];Main.main;Main.idle;read;sys_read_[k] 10',
  '[worker tid=2];Worker.run;Main.hot 7',
  '[worker tid=2];[unknown_Java] 3',
  '[worker tid=2];Worker.run_[j];Worker.loop_[j];Main.inl_[i];Main.leaf_[i] 4',
].join('\n') + '\n';

/* "a;b;c 12" lines -> Map of stack -> count; 'strip' drops a "[name tid=N]" root frame; per thread when
   'byThread' (keyed "thread|stack"). */
function readCollapsed(text, { strip, byThread } = {}) {
  const m = new Map();
  for (const line of text.split('\n')) {
    if (!line) continue;
    const cut = line.lastIndexOf(' ');
    let frames = line.slice(0, cut).split(';');
    let thread = '';
    if (/^\[.* tid=\d+\]$/.test(frames[0]) && (strip || byThread)) thread = frames.shift();
    const key = (byThread ? thread + '|' : '') + frames.join(';');
    m.set(key, (m.get(key) || 0) + Number(line.slice(cut + 1)));
  }
  return m;
}

/* What speedscope shows, from its own export: Map of "profileName|stack" -> weight. */
function stacksOfExport(json, withProfileName) {
  const m = new Map();
  const frames = json.shared.frames;
  const add = (name, stack, w) => {
    if (!w) return;
    const key = (withProfileName ? name + '|' : '') + stack.map((i) => frames[i].name).join(';');
    m.set(key, (m.get(key) || 0) + w);
  };
  for (const p of json.profiles) {
    if (p.type === 'sampled') {
      p.samples.forEach((s, i) => add(p.name, s, p.weights[i]));
    } else {   /* evented: open/close events; the time between two events belongs to the open stack */
      const open = [];
      let last = p.startValue;
      for (const e of p.events) {
        add(p.name, open.slice(), e.at - last);
        last = e.at;
        if (e.type === 'O') open.push(e.frame);
        else open.pop();
      }
    }
  }
  return m;
}

function scaled(map, factor) {
  return new Map([...map].map(([k, v]) => [k, v * factor]));
}

function assertSameStacks(actual, expected, what) {
  const round = (m) => new Map([...m].map(([k, v]) => [k, Math.round(v * 1000) / 1000]));
  const sorted = (m) => [...round(m)].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0]));
  assert.deepStrictEqual(sorted(actual), sorted(expected), `${what}: the viewer's stacks and weights`);
}

let context;
const files = {};
const lined = {};   /* the agent's own viewer files and JFR recording of FlameWorkload (source lines) */

/* The truth from FlameWorkload.java: spin's first line with code and the line of its loop. */
function sourceLines() {
  const lines = fs.readFileSync(path.join(__dirname, 'FlameWorkload.java'), 'utf8').split('\n');
  const find = (text) => lines.findIndex((l) => l.includes(text)) + 1;
  return { first: find('long x = 0;'), loop: find('x = x * 31') };
}

/* The agent writes each of the four formats (and a JFR recording) itself, from runs side by side. */
async function agentRuns() {
  const out = {};
  await Promise.all(['pb.gz', 'speedscope.json', 'cpuprofile', 'gecko.json', 'jfr', 'collapsed'].map((ext) => {
    out[ext] = path.join(OUT, `lines.${ext}`);
    /* collapsed: with the 'lines' option, which names Java frames class.method:LINE */
    const agent = `${env('LIBPROF_SO')}=start,event=cpu,interval=1ms,${ext === 'collapsed' ? 'lines,' : ''}file=${out[ext]}`;
    return run(env('JAVA'), [`-agentpath:${agent}`, '-cp', env('BROWSER_CLASSES'), 'FlameWorkload', '1']);
  }));
  for (const ext of ['pb.gz', 'cpuprofile', 'gecko.json']) {
    out[`jfrconv.${ext}`] = path.join(OUT, `lines-jfrconv.${ext}`);
    await run(env('JFRCONV'), [out.jfr, out[`jfrconv.${ext}`]]);
  }
  return out;
}

before(async () => {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`chromium is not installed at ${CHROMIUM}`);
  speedscopeIndex();
  fs.rmSync(OUT, { recursive: true, force: true });
  fs.mkdirSync(OUT, { recursive: true });
  const syn = path.join(OUT, 'synthetic.collapsed');
  fs.writeFileSync(syn, SYNTHETIC);
  const real = path.join(OUT, 'real.collapsed');
  const agent = `${env('LIBPROF_SO')}=start,event=cpu,interval=1ms,threads,file=${real}`;
  const [runs] = await Promise.all([
    agentRuns(),
    run(env('JAVA'), [`-agentpath:${agent}`, '-cp', env('BROWSER_CLASSES'), 'FlameWorkload', '1'])]);
  Object.assign(lined, runs);
  for (const [name, input] of [['synthetic', syn], ['real', real]]) {
    files[name] = { collapsed: fs.readFileSync(input, 'utf8') };
    for (const ext of ['pb.gz', 'speedscope.json', 'cpuprofile', 'gecko.json']) {
      const file = path.join(OUT, `${name}.${ext}`);
      await run(env('RENDER_PROFILE'), [input, `file=${file},interval=${INTERVAL_MS}ms`]);
      files[name][ext] = file;
    }
  }
  const { chromium } = require('playwright-core');
  context = await chromium.launchPersistentContext(fs.mkdtempSync(path.join(os.tmpdir(), 'libprof-chromium-')), {
    executablePath: CHROMIUM,
    headless: true,
    acceptDownloads: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--allow-file-access-from-files'],
  });
});

after(async () => {
  if (context) await context.close();
});

/* Loads 'bytes' into speedscope as the file 'name' (the way its command line does: a script calling
   speedscope.loadFileFromBase64), waits for it to draw, exports with Ctrl+S and returns the export. */
async function throughSpeedscope(name, bytes) {
  const loader = path.join(OUT, `load-${name}.js`);
  fs.writeFileSync(loader, `speedscope.loadFileFromBase64(${JSON.stringify(name)}, ` +
                           `${JSON.stringify(Buffer.from(bytes).toString('base64'))})`);
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  await page.goto(`file://${speedscopeIndex()}#localProfilePath=${loader}`);
  try {
    await page.waitForFunction(() => document.title.includes(' - speedscope'), null, { timeout: 20000 });
  } catch (e) {
    throw new Error(`speedscope did not open ${name}: ${errors.join('; ') || e.message}`);
  }
  const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Control+s')]);
  const exported = JSON.parse(fs.readFileSync(await download.path(), 'utf8'));
  await page.close();
  return exported;
}

test('jfrconv --highlight: the flame graph of collapsed input opens with the matching frames searched', async () => {
  const page_file = path.join(OUT, 'highlight.html');
  await run(env('JFRCONV'), ['--highlight', 'Main\\.(hot|cold)', path.join(OUT, 'synthetic.collapsed'), page_file]);
  const page = await context.newPage();
  await page.goto(`file://${page_file}`);
  await page.waitForFunction(() => window.libprof && window.libprof.firstDrawMs > 0, null, { timeout: 15000 });
  assert.strictEqual(await page.inputValue('#search'), '/Main\\.(hot|cold)/');
  /* Main.hot 60 + Main.cold 30 on main, Main.hot 7 on worker: 97 of the 114 samples. */
  assert.strictEqual(await page.textContent('#matched'), 'Matched: 85.09% (97 samples)');
  await page.close();
});

for (const name of ['synthetic', 'real']) {
  test(`${name}: speedscope reads the speedscope file, one profile per thread, with the collapsed weights`, async () => {
    const f = files[name];
    const json = await throughSpeedscope('profile.speedscope.json', fs.readFileSync(f['speedscope.json']));
    const expected = readCollapsed(f.collapsed, { byThread: true });
    assertSameStacks(stacksOfExport(json, true), expected, 'speedscope');
    const threads = new Set([...expected.keys()].map((k) => k.split('|')[0]));
    assert.strictEqual(json.profiles.length, threads.size, 'one profile per thread');
  });

  test(`${name}: speedscope's pprof importer reads the .pb.gz with the collapsed frames and counts`, async () => {
    const f = files[name];
    const json = await throughSpeedscope('profile.pb.gz', fs.readFileSync(f['pb.gz']));
    /* pprof carries threads as a label, which speedscope does not show: stacks merged over threads. Of a
       location's lines speedscope shows the last only (the frame the others were inlined into), so the
       inlined frames ("_[i]") are folded into their caller there. */
    const expected = new Map();
    for (const [k, v] of readCollapsed(f.collapsed, { strip: true })) {
      const folded = k.split(';').filter((frame) => !frame.endsWith('_[i]')).join(';');
      expected.set(folded, (expected.get(folded) || 0) + v);
    }
    assertSameStacks(stacksOfExport(json, false), expected, 'pprof');
  });

  test(`${name}: speedscope's Chrome importer reads the .cpuprofile with the collapsed frames and times`, async () => {
    const f = files[name];
    const json = await throughSpeedscope('profile.cpuprofile', fs.readFileSync(f.cpuprofile));
    /* One tree for every thread (thread frames kept), each sample lasting the interval, in microseconds. */
    assertSameStacks(stacksOfExport(json, false), scaled(readCollapsed(f.collapsed), INTERVAL_MS * 1000), 'cpuprofile');
  });

  test(`${name}: speedscope's Firefox importer reads every Gecko thread with the collapsed frames and times`, async () => {
    const f = files[name];
    const gecko = JSON.parse(fs.readFileSync(f['gecko.json'], 'utf8'));
    const expected = readCollapsed(f.collapsed, { byThread: true });
    const seen = new Map();
    /* speedscope's importer reads the profile inside the wrapper Firefox's devtools add, one thread of it. */
    for (const thread of gecko.threads) {
      const wrapped = { systemHost: { name: 'Firefox' }, duration: 0, profile: { ...gecko, threads: [thread] } };
      const json = await throughSpeedscope('profile.json', JSON.stringify(wrapped));
      for (const [k, v] of stacksOfExport(json, false)) seen.set(`${thread.name}|${k}`, v / INTERVAL_MS);
    }
    assertSameStacks(seen, expected, 'gecko');
    assert.strictEqual(gecko.threads.length, new Set([...expected.keys()].map((k) => k.split('|')[0])).size);
  });

  test(`${name}: go tool pprof -raw reads the .pb.gz with the collapsed frames, counts and thread labels`, async () => {
    const f = files[name];
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'libprof-go-'));
    const { stdout } = await run('go', ['tool', 'pprof', '-raw', f['pb.gz']],
                                 { env: { ...process.env, HOME: home, GOFLAGS: '', GOTOOLCHAIN: 'local' },
                                   maxBuffer: 64 << 20 });
    fs.rmSync(home, { recursive: true, force: true });
    /* -raw: "Samples:" rows "count weight: loc loc ..." (leaf first), a "thread:[...]" line after each,
       then "Locations" rows "id: 0x0 M=1 name :line s=0" (inlined lines follow on their own rows), with
       "(system name)" after them when pprof shortened the name (C++ templates): the written name. */
    const locations = new Map();
    const locText = stdout.slice(stdout.indexOf('\nLocations\n'), stdout.indexOf('\nMappings\n'));
    let current;
    for (const line of locText.split('\n')) {
      const head = /^\s+(\d+): 0x[0-9a-f]+ M=\d+ (.*?) :\d+ s=\d+(?:\((.*)\))?$/.exec(line);
      const more = /^\s+(.*?) :\d+ s=\d+(?:\((.*)\))?$/.exec(line);
      if (head) locations.set(head[1], current = [head[3] || head[2]]);
      else if (more && current) current.push(more[2] || more[1]);
    }
    const seen = new Map();
    const rows = stdout.slice(stdout.indexOf('\nSamples:\n'), stdout.indexOf('\nLocations\n')).split('\n');
    for (let i = 0; i < rows.length; i++) {
      const m = /^\s+(\d+)\s+(\d+): ([\d ]+)$/.exec(rows[i]);
      if (!m) continue;
      const thread = /thread:\[(.*)\]/.exec(rows[i + 1] || '');
      const frames = m[3].trim().split(' ').flatMap((id) => locations.get(id)).reverse();
      const key = `${thread ? thread[1] : ''}|${frames.join(';')}`;
      seen.set(key, (seen.get(key) || 0) + Number(m[1]));
    }
    assertSameStacks(seen, readCollapsed(f.collapsed, { byThread: true }), 'go tool pprof');
    assert.match(stdout, /Comment: \d+ samples; dropped \d+; failed walks \d+/, 'the completeness comment');
  });
}

/* go tool pprof -raw: locations (id -> lines [{name, file, line, start}], innermost first) and samples
   ({count, locations leaf first}). */
async function pprofRaw(file) {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'libprof-go-'));
  const { stdout } = await run('go', ['tool', 'pprof', '-raw', file],
                               { env: { ...process.env, HOME: home, GOFLAGS: '', GOTOOLCHAIN: 'local' },
                                 maxBuffer: 64 << 20 });
  fs.rmSync(home, { recursive: true, force: true });
  const locations = new Map();
  let current;
  const locText = stdout.slice(stdout.indexOf('\nLocations\n'), stdout.indexOf('\nMappings\n'));
  for (const row of locText.split('\n')) {
    const head = /^\s+(\d+): 0x[0-9a-f]+ M=\d+ (.*)$/.exec(row);
    const text = head ? head[2] : row.trim();
    const line = /^(.*?) (\S*):(\d+) s=(\d+)/.exec(text);
    if (!line) continue;
    const entry = { name: line[1], file: line[2], line: Number(line[3]), start: Number(line[4]) };
    if (head) locations.set(head[1], current = [entry]);
    else if (current) current.push(entry);
  }
  const samples = [];
  for (const row of stdout.slice(stdout.indexOf('\nSamples:\n'), stdout.indexOf('\nLocations\n')).split('\n')) {
    const m = /^\s+(\d+)\s+(\d+): ([\d ]+)$/.exec(row);
    if (m) samples.push({ count: Number(m[1]), locations: m[3].trim().split(' ').map((id) => locations.get(id)) });
  }
  return { locations, samples };
}

/* Samples per source line of FlameWorkload.spin as the leaf; the line with the most. */
function hottest(perLine) {
  return [...perLine].sort((a, b) => b[1] - a[1])[0][0];
}

/* go tool pprof's samples with FlameWorkload.spin as the leaf, per source line ('check' sees each). */
async function spinLeafLines(file, check) {
  const perLine = new Map();
  for (const s of (await pprofRaw(file)).samples) {
    const leaf = s.locations[0][0];
    if (leaf.name !== 'FlameWorkload.spin') continue;
    check(leaf, s);
    perLine.set(leaf.line, (perLine.get(leaf.line) || 0) + s.count);
  }
  return perLine;
}

function spinFrame(json) {
  const frame = json.shared.frames.find((f) => f.name === 'FlameWorkload.spin');
  assert.ok(frame, 'the viewer shows FlameWorkload.spin');
  return frame;
}

test('source lines: speedscope shows FlameWorkload.spin in its file and first line from the agent\'s speedscope, pprof, Chrome and Gecko files', async () => {
  const truth = sourceLines();
  const gecko = JSON.parse(fs.readFileSync(lined['gecko.json'], 'utf8'));
  const main = gecko.threads.find((t) => t.name === 'main') || gecko.threads[0];
  for (const [name, bytes] of [['profile.speedscope.json', fs.readFileSync(lined['speedscope.json'])],
                               ['profile.pb.gz', fs.readFileSync(lined['pb.gz'])],
                               ['profile.cpuprofile', fs.readFileSync(lined.cpuprofile)],
                               ['profile.json', JSON.stringify({ systemHost: { name: 'Firefox' }, duration: 0,
                                                                 profile: { ...gecko, threads: [main] } })]]) {
    const frame = spinFrame(await throughSpeedscope(name, bytes));
    assert.strictEqual(frame.file, 'FlameWorkload.java', `${name}: the file speedscope shows`);
    if (name.endsWith('.pb.gz')) {
      /* speedscope's pprof importer overwrites a function's start line with the line of the last location
         it read of that function: it shows one of spin's location lines (as go tool pprof reads them). */
      const { locations } = await pprofRaw(lined['pb.gz']);
      const spinLines = new Set([...locations.values()].flat().filter((l) => l.name === 'FlameWorkload.spin')
        .map((l) => l.line));
      assert.ok(spinLines.has(frame.line), `${name}: speedscope shows line ${frame.line}, spin's are ${[...spinLines]}`);
    } else {
      assert.strictEqual(frame.line, truth.first, `${name}: the line speedscope shows`);
    }
  }
});

test('source lines: go tool pprof reads the agent\'s .pb.gz with spin\'s file, first line and its loop as the hottest line', async () => {
  const truth = sourceLines();
  const perLine = await spinLeafLines(lined['pb.gz'], (leaf, s) => {
    assert.strictEqual(leaf.file, 'FlameWorkload.java');
    assert.strictEqual(leaf.start, truth.first);
    assert.match(s.locations[1][0].name, /^FlameWorkload\.(hot|cold)$/, 'its caller');
  });
  assert.ok(perLine.size > 0, 'samples in FlameWorkload.spin');
  assert.strictEqual(hottest(perLine), truth.loop, `spin's lines by samples: ${[...perLine]}`);
});

test('source lines: the agent\'s .cpuprofile and Gecko files put spin\'s samples on its loop line', async () => {
  const truth = sourceLines();
  const cpuprofile = JSON.parse(fs.readFileSync(lined.cpuprofile, 'utf8'));
  const ticks = new Map();
  for (const node of cpuprofile.nodes.filter((n) => n.callFrame.functionName === 'FlameWorkload.spin')) {
    assert.strictEqual(node.callFrame.url, 'FlameWorkload.java');
    assert.strictEqual(node.callFrame.lineNumber, truth.first - 1, 'lineNumber is 0-based');
    const sum = (node.positionTicks || []).reduce((a, t) => a + t.ticks, 0);
    assert.ok(sum <= node.hitCount, 'positionTicks count self samples');
    for (const t of node.positionTicks || []) ticks.set(t.line, (ticks.get(t.line) || 0) + t.ticks);
  }
  assert.strictEqual(hottest(ticks), truth.loop, `positionTicks: ${[...ticks]}`);
  const gecko = JSON.parse(fs.readFileSync(lined['gecko.json'], 'utf8'));
  const perLine = new Map();
  for (const t of gecko.threads) {
    for (const [stack] of t.samples.data) {
      if (stack === null) continue;
      const frame = t.frameTable.data[t.stackTable.data[stack][1]];
      if (t.stringTable[frame[0]] !== `FlameWorkload.spin (FlameWorkload.java:${truth.first})`) continue;
      perLine.set(frame[4], (perLine.get(frame[4]) || 0) + 1);
    }
  }
  assert.strictEqual(hottest(perLine), truth.loop, `Gecko frame lines: ${[...perLine]}`);
});

test('source lines: jfrconv writes the lines of the agent\'s JFR recording (no file: JFR records none)', async () => {
  const truth = sourceLines();
  const perLine = await spinLeafLines(lined['jfrconv.pb.gz'], (leaf) => assert.strictEqual(leaf.file, ''));
  assert.strictEqual(hottest(perLine), truth.loop, `spin's lines by samples: ${[...perLine]}`);
  const cpuprofile = JSON.parse(fs.readFileSync(lined['jfrconv.cpuprofile'], 'utf8'));
  const ticks = new Map();
  for (const node of cpuprofile.nodes.filter((n) => n.callFrame.functionName === 'FlameWorkload.spin'))
    for (const t of node.positionTicks || []) ticks.set(t.line, (ticks.get(t.line) || 0) + t.ticks);
  assert.strictEqual(hottest(ticks), truth.loop, `positionTicks: ${[...ticks]}`);
});

test('source lines: the agent\'s lines option names spin\'s frames by line in collapsed output, the loop hottest', () => {
  const truth = sourceLines();
  const perLine = new Map();
  for (const [stack, count] of readCollapsed(fs.readFileSync(lined.collapsed, 'utf8'))) {
    const frames = stack.split(';');
    for (const f of frames.filter((x) => x.startsWith('FlameWorkload.')))
      assert.match(f, /^FlameWorkload\.\w+:\d+$/, 'every FlameWorkload frame has its line');
    const leaf = /^FlameWorkload\.spin:(\d+)$/.exec(frames[frames.length - 1]);
    if (leaf) perLine.set(Number(leaf[1]), (perLine.get(Number(leaf[1])) || 0) + count);
  }
  assert.strictEqual(hottest(perLine), truth.loop, `spin's leaf lines: ${[...perLine]}`);
});

/* "2026-11-24T08:23:27.746174632Z" -> microseconds since the epoch. */
function isoMicros(text) {
  const m = /^(.*T\d\d:\d\d:\d\d)(?:\.(\d+))?Z$/.exec(text);
  const fraction = ((m[2] || '') + '000000000').slice(0, 9);
  return BigInt(Date.parse(m[1] + 'Z')) * 1000n + BigInt(fraction) / 1000n;
}

test('time order: jfrconv\'s .cpuprofile has the recording\'s samples in time order at their jfr print times', async () => {
  const jfr = path.join(path.dirname(env('JAVA')), 'jfr');
  const { stdout } = await run(jfr, ['print', '--json', '--events', 'jdk.ExecutionSample', lined.jfr],
                               { maxBuffer: 256 << 20 });
  const events = JSON.parse(stdout).recording.events.map((e) => ({
    us: isoMicros(e.values.startTime),
    leaf: e.values.stackTrace.frames[0].method.name,
  })).sort((a, b) => (a.us < b.us ? -1 : a.us > b.us ? 1 : 0));
  const cpuprofile = JSON.parse(fs.readFileSync(lined['jfrconv.cpuprofile'], 'utf8'));
  assert.strictEqual(cpuprofile.libprof.synthesisedOrder, false);
  const byId = new Map(cpuprofile.nodes.map((n) => [n.id, n.callFrame.functionName]));
  const samples = cpuprofile.samples.slice(0, -1);   /* the last closes the timeline on "(root)" */
  assert.strictEqual(samples.length, events.length, 'one sample per event');
  let at = BigInt(cpuprofile.startTime);
  let sameLeaf = 0;
  samples.forEach((id, i) => {
    at += BigInt(cpuprofile.timeDeltas[i]);
    const diff = at - events[i].us;
    assert.ok(diff <= 1n && diff >= -1n, `sample ${i} at ${at} us, jfr print says ${events[i].us}`);
    const name = byId.get(id);
    if (name === events[i].leaf || name.endsWith('.' + events[i].leaf)) sameLeaf++;
  });
  /* Events within the same microsecond (two threads) may be listed either way round. */
  assert.ok(sameLeaf >= samples.length - 2, `leaf frames in the same order: ${sameLeaf} of ${samples.length}`);
  assert.ok(cpuprofile.timeDeltas.every((d) => d >= 0), 'time never runs backwards');
  const gecko = JSON.parse(fs.readFileSync(lined['jfrconv.gecko.json'], 'utf8'));
  assert.strictEqual(gecko.meta.libprof.synthesisedOrder, false);
  const geckoTimes = gecko.threads.flatMap((t) => t.samples.data.filter((d) => d[0] !== null).map((d) => d[1]));
  assert.strictEqual(geckoTimes.length, events.length);
  const start = Number(events[0].us) / 1000;
  const expected = events.map((e) => Number(e.us) / 1000 - start).sort((a, b) => a - b);
  geckoTimes.sort((a, b) => a - b).forEach((t, i) =>
    assert.ok(Math.abs(t - expected[i]) < 0.002, `Gecko sample ${i} at ${t} ms, jfr print ${expected[i]} ms`));
});
