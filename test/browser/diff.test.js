'use strict';
/*
 * Browser test of jfrconv --diff's HTML page, run by ctest (test/browser/tests.cmake): two known
 * collapsed profiles whose stacks were added, grew, shrank, were removed or stayed the same are compared by
 * jfrconv, and the page is opened from disk in headless chromium: every frame is drawn at the width the
 * shares give, in the colour of its change (removed ones hatched), the tooltip gives base, new and delta,
 * and clicking a frame zooms into it while the search marks matching frames.
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
const OUT = process.env.BROWSER_OUT || path.join(os.tmpdir(), 'libprof-browser-diff');   /* its own: the other tests empty theirs */

/* Shares (no durations in collapsed text): base 100 samples, new 200. hot 40% -> 50% (grown), warm 30% -> 10%
 * (shrunk), gone 20% -> 0 (removed), fresh 0 -> 30% (added), flat 10% -> 10% (same). */
const BASE = 'main;a;hot 40\nmain;a;warm 30\nmain;b;gone 20\nmain;flat 10\n';
const NEXT = 'main;a;hot 100\nmain;a;warm 20\nmain;c;fresh 60\nmain;flat 20\n';

let context;
let pageFile;

before(async () => {
  const jfrconv = process.env.JFRCONV;
  if (!jfrconv) throw new Error('JFRCONV is not set: run the browser tests through ctest');
  fs.rmSync(OUT, { recursive: true, force: true });
  fs.mkdirSync(OUT, { recursive: true });
  fs.writeFileSync(path.join(OUT, 'base.collapsed'), BASE);
  fs.writeFileSync(path.join(OUT, 'new.collapsed'), NEXT);
  pageFile = path.join(OUT, 'diff.html');
  await run(jfrconv, ['--diff', '--title', 'Known diff', path.join(OUT, 'base.collapsed'), path.join(OUT, 'new.collapsed'), pageFile]);
  context = await launchChromium();
});

after(async () => {
  if (context) await context.close();
});

const open = () => openOffline(context, pageFile);

/* Every drawn frame: its name, box (px), computed background colour and image, and visibility. */
function frames(page) {
  return page.evaluate(() => Array.from(document.querySelectorAll('#g .f')).map((e) => {
    const r = e.getBoundingClientRect();
    const cs = getComputedStyle(e);
    return { name: e.textContent, left: r.left, width: r.width, top: r.top, color: cs.backgroundColor,
             image: cs.backgroundImage, removed: e.classList.contains('removed'), shown: cs.display !== 'none',
             marked: e.classList.contains('match') };
  }));
}

const rgb = (c) => c.match(/\d+/g).slice(0, 3).map(Number);
const byName = (list, name) => {
  const f = list.find((x) => x.name === name);
  assert.ok(f, `no frame ${name} drawn: ${list.map((x) => x.name).join(', ')}`);
  return f;
};

test('the page renders every frame at the width of its share, the removed at their base width', async () => {
  const page = await open();
  assert.strictEqual(await page.title(), 'libprof differential profile');
  assert.match(await page.textContent('#title'), /Known diff/);
  assert.match(await page.textContent('#summary'), /base: .*base\.collapsed.*new: .*new\.collapsed/);
  const list = await frames(page);
  const names = list.map((f) => f.name).sort();
  assert.deepStrictEqual(names, ['a', 'b', 'c', 'flat', 'fresh', 'gone', 'hot', 'main', 'warm']);
  // The whole width: the new profile (100%) plus what was removed at its base share (20%).
  const main = byName(list, 'main');
  const share = (name) => byName(list, name).width / main.width;
  const near = (got, want, what) => assert.ok(Math.abs(got - want) < 0.01, `${what}: ${got.toFixed(4)}, expected ${want.toFixed(4)}`);
  near(share('hot'), 50 / 120, 'hot');
  near(share('warm'), 10 / 120, 'warm');
  near(share('fresh'), 30 / 120, 'fresh');
  near(share('flat'), 10 / 120, 'flat');
  near(share('gone'), 20 / 120, 'gone (removed, at its base share)');
  near(share('a'), 60 / 120, 'a');
  // Root at the top, children below their parents.
  assert.ok(byName(list, 'a').top > main.top && byName(list, 'hot').top > byName(list, 'a').top, 'not drawn root first');
  await page.done();
});

test('frames are coloured by their change: red grown/added, blue shrunk/removed (hatched), grey same', async () => {
  const page = await open();
  const list = await frames(page);
  const red = (name) => { const [r, g, b] = rgb(byName(list, name).color); return r === 255 && g < 230 && b < 230 && g === b; };
  const blue = (name) => { const [r, g, b] = rgb(byName(list, name).color); return b === 255 && r < 230 && g < 230 && r === g; };
  for (const name of ['hot', 'fresh', 'c']) assert.ok(red(name), `${name} (grown or added) is not red: ${byName(list, name).color}`);
  for (const name of ['warm', 'gone', 'b']) assert.ok(blue(name), `${name} (shrunk or removed) is not blue: ${byName(list, name).color}`);
  assert.deepStrictEqual(rgb(byName(list, 'flat').color), [221, 221, 221], 'an unchanged frame is not grey');
  // The largest change is the deepest colour: fresh (+30 points) is redder than hot (+10).
  assert.ok(rgb(byName(list, 'fresh').color)[1] < rgb(byName(list, 'hot').color)[1], 'added fresh is not redder than grown hot');
  // Removed frames, and only they, are hatched.
  for (const f of list) {
    const hatched = f.image.includes('repeating-linear-gradient');
    assert.strictEqual(hatched, ['gone', 'b'].includes(f.name), `${f.name}: hatched ${hatched}`);
    assert.strictEqual(f.removed, ['gone', 'b'].includes(f.name), `${f.name}: class removed ${f.removed}`);
  }
  await page.done();
});

test('the tooltip gives base, new and delta with the change in percent', async () => {
  const page = await open();
  const tipOf = async (name) => {
    const f = byName(await frames(page), name);
    await page.mouse.move(f.left + Math.min(f.width / 2, 20), f.top + 8);
    await page.waitForFunction(() => getComputedStyle(document.getElementById('tip')).display !== 'none');
    return page.textContent('#tip');
  };
  // Values as shares (collapsed inputs have no duration): "% of samples".
  const warm = await tipOf('warm');
  assert.match(warm, /^warm\nbase 30 {2}new 10 {2}delta -20 % of samples \(-66\.6667%\)$/, warm);
  const hot = await tipOf('hot');
  assert.match(hot, /base 40 {2}new 50 {2}delta \+10 % of samples \(\+25%\)/, hot);
  assert.match(await tipOf('gone'), /base 20 {2}new 0 {2}delta -20 % of samples \(removed\)/);
  assert.match(await tipOf('fresh'), /base 0 {2}new 30 {2}delta \+30 % of samples \(added\)/);
  assert.match(await tipOf('flat'), /base 10 {2}new 10 {2}delta \+0 % of samples \(\+0%\)/);
  await page.done();
});

test('clicking a frame zooms into it; the root or Reset zoom go back', async () => {
  const page = await open();
  const before = await frames(page);
  const a = byName(before, 'a');
  await page.mouse.click(a.left + 10, a.top + 8);
  let list = await frames(page);
  const main = byName(list, 'main');
  const shown = list.filter((f) => f.shown).map((f) => f.name).sort();
  // a's subtree and its ancestor only; a spans the width, its children keep their shares of it (50:10).
  assert.deepStrictEqual(shown, ['a', 'hot', 'main', 'warm']);
  assert.ok(Math.abs(byName(list, 'a').width - main.width) < 1, 'the zoomed frame does not span the width');
  assert.ok(Math.abs(byName(list, 'hot').width / main.width - 50 / 60) < 0.01, 'hot is not 50/60 of the zoomed a');
  assert.ok(Math.abs(byName(list, 'warm').width / main.width - 10 / 60) < 0.01, 'warm is not 10/60 of the zoomed a');
  assert.strictEqual(await page.evaluate(() => window.libprofDiff.zoomed), 'a');
  // Zoom into a removed frame: it spans the width too.
  await page.click('#reset');
  list = await frames(page);
  assert.ok(list.every((f) => f.shown), 'Reset zoom left frames hidden');
  assert.ok(Math.abs(byName(list, 'hot').width - byName(before, 'hot').width) < 0.5, 'Reset zoom did not restore the widths');
  const gone = byName(list, 'gone');
  await page.mouse.click(gone.left + 5, gone.top + 8);
  list = await frames(page);
  assert.deepStrictEqual(list.filter((f) => f.shown).map((f) => f.name).sort(), ['b', 'gone', 'main']);
  // A click on the root when it is the zoomed frame, or on an ancestor, zooms out to it.
  const root = byName(list, 'main');
  await page.mouse.click(root.left + 10, root.top + 8);
  await page.mouse.click(root.left + 10, root.top + 8);
  list = await frames(page);
  assert.ok(list.every((f) => f.shown), 'clicking the root did not zoom out');
  await page.done();
});

test('the search marks matching frames and sums their outermost matches', async () => {
  const page = await open();
  await page.fill('#search', '^(hot|warm)$');
  let list = await frames(page);
  assert.deepStrictEqual(list.filter((f) => f.marked).map((f) => f.name).sort(), ['hot', 'warm']);
  assert.strictEqual(await page.textContent('#matched'), '2 frames match: base 70, new 60, delta -10 % of samples');
  // Nested matches count once: "a" holds hot and warm.
  await page.fill('#search', '^(a|hot)$');
  assert.strictEqual(await page.textContent('#matched'), '2 frames match: base 70, new 60, delta -10 % of samples');
  // Not a regular expression: plain text.
  await page.fill('#search', 'go(');
  assert.strictEqual(await page.textContent('#matched'), '0 frames match: base 0, new 0, delta +0 % of samples');
  await page.fill('#search', 'gon');
  assert.strictEqual(await page.textContent('#matched'), '1 frames match: base 20, new 0, delta -20 % of samples');
  await page.fill('#search', '');
  list = await frames(page);
  assert.ok(list.every((f) => !f.marked) && (await page.textContent('#matched')) === '', 'clearing the search left marks');
  await page.done();
});
