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

before(async () => {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`chromium is not installed at ${CHROMIUM}`);
  speedscopeIndex();
  fs.rmSync(OUT, { recursive: true, force: true });
  fs.mkdirSync(OUT, { recursive: true });
  const syn = path.join(OUT, 'synthetic.collapsed');
  fs.writeFileSync(syn, SYNTHETIC);
  const real = path.join(OUT, 'real.collapsed');
  const agent = `${env('LIBPROF_SO')}=start,event=cpu,interval=1ms,threads,file=${real}`;
  await run(env('JAVA'), [`-agentpath:${agent}`, '-cp', env('BROWSER_CLASSES'), 'FlameWorkload', '1']);
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
