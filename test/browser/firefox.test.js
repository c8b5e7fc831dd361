'use strict';
/*
 * The Gecko profiles (Firefox Profiler format) read by the Firefox Profiler's own code: the
 * npm package @firefox-devtools/profiler-cli bundles profiler.firefox.com's profile loading and processing
 * (the same import, upgrade and call tree code as the web app) behind a command line, run here under node.
 * Each file is loaded into it and every thread's top-down call tree must hold exactly the stacks and sample
 * counts of the collapsed output of the same samples: a synthetic profile (two threads, native and kernel
 * frames), and a real JVM's recording converted by jfrconv (-t -o gecko versus -t -o collapsed).
 */
const { test, before, after } = require('node:test');
const assert = require('node:assert');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { execFile } = require('child_process');
const { promisify } = require('util');

const run = promisify(execFile);
const OUT = process.env.BROWSER_OUT || path.join(os.tmpdir(), 'libprof-firefox');
const HOME = path.join(OUT, 'home');   /* the CLI keeps its daemons' sockets and logs under $HOME */
let cli;

function env(name) {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set: run the browser tests through ctest`);
  return v;
}

/* One profiler-cli command with --json in session 'session': its parsed output. */
async function pq(session, ...args) {
  const { stdout } = await run(process.execPath, [cli, ...args, '--session', session],
                               { env: { ...process.env, HOME }, maxBuffer: 64 << 20 });
  return stdout;
}

/* Loads 'file' in a session of its own; the daemon may take longer than the CLI waits: poll its status. */
async function load(session, file) {
  try {
    await pq(session, 'load', file);
  } catch (e) {
    if (!/did not become ready/.test(String(e.stderr || e.message))) throw e;
  }
  for (let i = 0; ; i++) {
    try {
      const status = await pq(session, 'status');
      if (/Selected thread/.test(status)) return;
    } catch (e) {
      if (i >= 60) throw new Error(`the profiler did not load ${file}: ${e.stderr || e.message}`);
    }
    await new Promise((r) => setTimeout(r, 500));
  }
}

/* Every thread's stacks as the Firefox Profiler's call tree has them: "thread frame;a;b" -> self samples, with
   the location our writer appends to each function name (" (java)", " (libc.so.6)", " (kernel)") left out. */
async function stacksOf(session) {
  const list = JSON.parse(await pq(session, 'thread', 'list', '--json'));
  const stacks = new Map();
  for (const t of list.threads) {
    const tree = JSON.parse(await pq(session, 'thread', 'samples-top-down', '--thread', t.threadHandle, '--json',
                                     '--max-lines', '1000000', '--include-idle'));
    const walk = (node, prefix) => {
      const here = node.originalDepth < 0 ? prefix : `${prefix};${node.name.replace(/ \([^()]*\)$/, '')}`;
      if (node.selfSamples > 0) stacks.set(here, (stacks.get(here) || 0) + node.selfSamples);
      for (const c of node.children || []) walk(c, here);
    };
    walk(tree.regularCallTree, t.name);
  }
  return stacks;
}

function collapsed(text) {
  const stacks = new Map();
  for (const line of text.split('\n')) {
    const m = line.match(/^(.*) (\d+)$/);
    if (m) stacks.set(m[1], (stacks.get(m[1]) || 0) + Number(m[2]));
  }
  return stacks;
}

/* The Firefox Profiler names a native function "non-virtual thunk to X (in lib)" as X (its own import rule
 * for "name (in lib)" frames), so a C++ thunk and its target are one function there: the same merge here. */
function asFirefoxNamesThem(stacks) {
  const merged = new Map();
  for (const [k, v] of stacks) {
    const name = k.split(';').map((f) => f.replace(/^non-virtual thunk to /, '')).join(';');
    merged.set(name, (merged.get(name) || 0) + v);
  }
  return merged;
}

function assertSameStacks(got, want, what) {
  const total = (m) => [...m.values()].reduce((a, b) => a + b, 0);
  console.log(`${what}: the Firefox Profiler shows ${got.size} stacks, ${total(got)} samples; collapsed ${want.size}, ${total(want)}`);
  assert.ok(want.size > 0, `${what}: no collapsed stacks to compare`);
  const diff = [];
  for (const [k, v] of want) if (got.get(k) !== v) diff.push(`${k}: expected ${v}, got ${got.get(k)}`);
  for (const [k, v] of got) if (!want.has(k)) diff.push(`${k}: unexpected ${v}`);
  assert.deepStrictEqual(diff.slice(0, 20), [], `${what}: the Firefox Profiler's call tree differs from the collapsed stacks`);
}

before(async () => {
  try {
    cli = require.resolve('@firefox-devtools/profiler-cli/dist/profiler-cli.js');
  } catch (e) {
    throw new Error('@firefox-devtools/profiler-cli is missing from test/browser/node_modules: run ./build.sh test, ' +
                    'which installs it with npm ci (' + e.message + ')');
  }
  fs.rmSync(OUT, { recursive: true, force: true });
  fs.mkdirSync(HOME, { recursive: true });
});

after(async () => {
  if (cli) await run(process.execPath, [cli, 'stop', '--all'], { env: { ...process.env, HOME } }).catch(() => {});
});

test('a synthetic Gecko profile: the threads, stacks and counts of its collapsed stacks', async () => {
  const syn = path.join(OUT, 'synthetic.collapsed');
  fs.writeFileSync(syn, ['[main tid=1];Main.main;Main.work;Main.hot 60', '[main tid=1];Main.main;Main.work;Main.cold 30',
                         '[main tid=1];Main.main;Main.idle;read;sys_read_[k] 7', '[w tid=2];Worker.run;deflate;longest_match 10',
                         '[w tid=2];Worker.run 3'].join('\n') + '\n');
  const gecko = path.join(OUT, 'synthetic.gecko.json');
  await run(env('RENDER_PROFILE'), [syn, `file=${gecko},interval=1ms`]);
  await load('syn', gecko);
  assertSameStacks(await stacksOf('syn'), collapsed(fs.readFileSync(syn, 'utf8')), 'synthetic');
});

test("a real JVM's recording through jfrconv: -o gecko read as -o collapsed writes it", async () => {
  const rec = path.join(OUT, 'real.jfr');
  await run(env('JAVA'), [`-agentpath:${env('LIBPROF_SO')}=start,event=cpu,interval=1ms,file=${rec}`, '-cp',
                          env('BROWSER_CLASSES'), 'FlameWorkload', '1']);
  const gecko = path.join(OUT, 'real.gecko.json'), text = path.join(OUT, 'real.collapsed');
  await run(env('JFRCONV'), ['-t', '-o', 'gecko', rec, gecko]);
  await run(env('JFRCONV'), ['-t', '-o', 'collapsed', rec, text]);
  const want = asFirefoxNamesThem(collapsed(fs.readFileSync(text, 'utf8')));
  assert.ok([...want.values()].reduce((a, b) => a + b, 0) > 100, 'too few samples in the real recording');
  await load('real', gecko);
  assertSameStacks(await stacksOf('real'), want, 'real');
});

/* "GC: <collector> (<cause>)" -> count, from jfr print's jdk.GarbageCollection events. */
async function collectionsOf(recording) {
  const jfr = path.join(path.dirname(env('JAVA')), 'jfr');
  const { stdout } = await run(jfr, ['print', '--json', '--events', 'jdk.GarbageCollection', recording],
                               { maxBuffer: 64 << 20 });
  const counts = new Map();
  for (const e of JSON.parse(stdout).recording.events) {
    const name = `GC: ${e.values.name} (${e.values.cause})`;
    counts.set(name, (counts.get(name) || 0) + 1);
  }
  return counts;
}

test("a JDK recording's garbage collections: interval markers of the Firefox Profiler, one per jdk.GarbageCollection", async () => {
  const rec = path.join(OUT, 'gc.jfr');
  await run(env('JAVA'), [`-XX:StartFlightRecording=filename=${rec},settings=profile`,
                          path.join(__dirname, 'GcWorkload.java'), '2']);
  const want = await collectionsOf(rec);
  assert.ok([...want.values()].reduce((a, b) => a + b, 0) >= 10, `too few collections recorded: ${[...want]}`);
  const gecko = path.join(OUT, 'gc.gecko.json');
  await run(env('JFRCONV'), ['-t', '-o', 'gecko', rec, gecko]);
  await load('gc', gecko);
  const shown = JSON.parse(await pq('gc', 'thread', 'markers', '--thread', 't-0', '--json'));
  const got = new Map(shown.byType.map((t) => [t.markerName, t.count]));
  assert.deepStrictEqual([...got].sort(), [...want].sort(), 'GC markers by collector and cause');
  for (const t of shown.byType) {
    assert.ok(t.isInterval && t.durationStats.min > 0, `${t.markerName}: an interval marker with its duration`);
  }
});
