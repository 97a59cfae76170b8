// The playground in a real browser: Debian's chromium driven by playwright-core.
//
//   node tests/browser/playground.mjs BASE_URL SCREENSHOT_DIR
//
// Checks the board's last row is on screen at 1280 x 900 and on a phone; plays a whole game of
// tic-tac-toe against alphabeta through the page (the human playing the first empty cell each
// turn, by mouse, and one move by keyboard), checks the result is a draw or a loss for the human,
// that the winning line is highlighted if there is one, and that the move list has every move;
// takes a move back with Undo; recovers from an API error (the human's move is taken back, the
// status says why, the board stays playable); sets up a position from its moves; analyses a
// position and checks a score is shown on every empty cell, green or red only when proven; runs
// a small tournament and checks the chart appears and is cleared by a later error; checks on a
// phone-sized screen that nothing overflows; plays chess (a move by clicks, the engine's reply
// in SAN with its depth and score, a promotion chosen from a position set up by FEN, a bad FEN
// refused); plays shogi (kanji and letters, a promotion chosen, a drop from the hand); and checks every request the page made went to the service itself. Screenshots go to SCREENSHOT_DIR.

import { chromium } from "playwright-core";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import assert from "node:assert/strict";

const [base, shots] = process.argv.slice(2);
assert.ok(base && shots, "usage: node playground.mjs BASE_URL SCREENSHOT_DIR");
mkdirSync(shots, { recursive: true });

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
  ],
});
const failures = [];
try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const origin = new URL(base).origin;
  const foreign = [];
  page.on("request", request => {
    if (new URL(request.url()).origin !== origin) foreign.push(request.url());
  });
  const consoleErrors = [];
  page.on("console", message => { if (message.type() === "error") consoleErrors.push(message.text()); });
  page.on("pageerror", error => consoleErrors.push(error.message));

  // The page carries a tag, and a browser coming back asks with it (and is answered 304).
  const first = await page.goto(base + "/");
  const etag = (await first.allHeaders())["etag"];
  assert.match(etag ?? "", /^"[0-9a-f]{16}"$/, "the page has an ETag");
  const again = await page.reload();
  assert.equal((await again.request().allHeaders())["if-none-match"], etag, "a reload asks with the tag");
  await page.waitForSelector("#algorithm option[value=alphabeta]", { state: "attached" });
  assert.equal(await page.locator("#algorithm").inputValue(), "alphabeta");
  await boardFits(page, "tic-tac-toe at 1280 x 900");
  const cells = async mark => page.locator(`#board .cell.${mark}`).count();
  const status = async () => page.locator("#status").textContent();

  // The level chooser: the game's levels and "custom", a middle level at first, the opponent
  // then the level's; a move at a level asks the engine for it.
  assert.equal(await page.locator("#level").inputValue(), "4", "a middle level at first");
  assert.equal(await page.locator("#level option").count(), 9, "eight levels and custom");
  assert.ok(await page.locator("#algorithm").isDisabled(), "the opponent is the level's");
  await page.selectOption("#level", "1");
  const asked = page.waitForRequest(request => request.url().endsWith("/move"));
  await page.locator('#board .cell[data-cell="4"]').click();
  const levelBody = JSON.parse((await asked).postData());
  assert.equal(levelBody.algorithm, "engine", "a level is the engine's");
  assert.equal(levelBody.level, 1, "at the level chosen");
  await page.waitForFunction(() => document.querySelectorAll("#board .cell.O").length === 1);
  assert.match(await page.locator("#sides").textContent(), /level 1/, "the opponent named by its level");
  await page.screenshot({ path: `${shots}/playground-levels.png`, fullPage: true });
  // Each level by its name, the same in every game; no download row where the game has no
  // record format of its own.
  assert.match(await page.locator("#level option").first().textContent(), /^1: beginner$/);
  assert.equal(await page.locator("#download-row").isVisible(), false, "tic-tac-toe has no record to download");
  await page.click("#undo");
  await page.waitForFunction(() => document.querySelectorAll("#board .cell.X, #board .cell.O").length === 0);
  // Custom: the opponent and its knobs set by hand, as the rest of this test sets them.
  await page.selectOption("#level", "");
  assert.ok(!(await page.locator("#algorithm").isDisabled()), "custom sets the opponent by hand");

  // Undo: a move and its reply are taken back, and it is the human's move again.
  await page.locator('#board .cell[data-cell="0"]').click();
  await page.waitForFunction(() => document.querySelectorAll("#board .cell.O").length === 1);
  assert.equal(await page.locator("#move-list li").count(), 2, "the move list has both moves");
  await page.click("#undo");
  await page.waitForFunction(() => document.querySelectorAll("#board .cell.X, #board .cell.O").length === 0);
  assert.deepEqual([await cells("X"), await cells("O")], [0, 0], "undo takes back the move and its reply");
  assert.equal(await page.locator("#move-list li").count(), 0);
  assert.match(await status(), /^Your move/);
  assert.ok(await page.locator("#undo").isDisabled(), "nothing left to undo");

  // An API error (a depth of 0): the human's move is taken back, the status says why, and the
  // board stays playable; with the setting fixed, the game goes on.
  await page.click("#settings summary");
  await page.fill("#knob-depth", "0");
  await page.locator('#board .cell[data-cell="0"]').click();
  await page.waitForFunction(() => document.getElementById("play-error").textContent.includes("depth"));
  assert.deepEqual([await cells("X"), await cells("O")], [0, 0], "the human's move is taken back");
  assert.match(await status(), /taken back/);
  assert.ok(await page.locator("#board .cell:not(:disabled)").count() === 9, "every cell is playable");
  console.log(`error recovery: "${await status()}" / ${await page.locator("#play-error").textContent()}`);
  await page.screenshot({ path: `${shots}/playground-error.png`, fullPage: true });
  await page.fill("#knob-depth", "");
  await page.locator('#board .cell[data-cell="0"]').click();
  await page.waitForFunction(() => document.querySelectorAll("#board .cell.O").length === 1);
  assert.equal(await page.locator("#play-error").textContent(), "", "the error is cleared");

  // Set up a position from its moves: an illegal one is refused and changes nothing.
  await page.click("#setup summary");
  await page.fill("#position", "5 5");
  await page.click("#load-position");
  await page.waitForFunction(() => document.getElementById("play-error").textContent.includes("cannot be played"));
  assert.match(await page.locator("#play-error").textContent(), /Move 2 \(5\) cannot be played/);
  assert.equal(await cells("X"), 1, "a refused position changes nothing");
  await page.fill("#position", "5 1");
  await page.click("#load-position");
  await page.waitForFunction(() => document.querySelector('#board .cell[data-cell="4"]').className === "cell X");
  assert.deepEqual([await cells("X"), await cells("O")], [1, 1]);
  assert.equal(await page.locator('#board .cell[data-cell="4"]').getAttribute("class"), "cell X");
  assert.equal(await page.locator('#board .cell[data-cell="0"]').getAttribute("class"), "cell O");
  assert.match(await status(), /^Your move/);
  await page.click("#new-game");
  await page.waitForFunction(() => document.querySelectorAll("#board .cell:not(:disabled)").length === 9);

  // One move by keyboard: Tab to the centre cell and press Enter.
  const centre = page.locator('#board .cell[data-cell="4"]');
  await centre.focus();
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => document.querySelectorAll("#board .cell.O").length === 1);
  await page.screenshot({ path: `${shots}/playground-first-moves.png`, fullPage: true });

  // Then the first empty cell each turn, by mouse, until the game ends.
  for (let turn = 0; turn < 9; turn++) {
    const result = await page.locator("#status").getAttribute("data-result");
    if (result) break;
    await page.waitForSelector("#board .cell:not(:disabled)");
    await page.locator("#board .cell:not(:disabled)").first().click();
    await page.waitForFunction(() => {
      const status = document.getElementById("status");
      return status.dataset.result || document.querySelector("#board .cell:not(:disabled)");
    });
  }
  const result = await page.locator("#status").getAttribute("data-result");
  assert.ok(["draw", "engine"].includes(result), `alphabeta never loses; the result was ${result}`);
  assert.equal(await page.locator("#move-list li").count(), await cells("X") + await cells("O"), "every move is listed");
  if (result === "engine") assert.equal(await page.locator("#board .cell.win").count(), 3);
  const nodes = await page.locator('#engine-info dd[data-field="nodes"]').textContent();
  assert.match(nodes, /^[\d,]+$/, "the engine's nodes are shown");
  // Moves are named as the keys 1-9 play them: cell N is row R, column C with N = 3(R-1) + C.
  const move = await page.locator('#engine-info dd[data-field="move"]').textContent();
  const [, cellNumber, row, column] = move.match(/^cell (\d) \(row (\d), column (\d)\)$/) || [];
  assert.ok(cellNumber, `the engine's move names its cell: ${move}`);
  assert.equal(Number(cellNumber), 3 * (Number(row) - 1) + Number(column), move);
  const pv = await page.locator('#engine-info dd[data-field="pv"]').textContent();
  assert.match(pv, /^([1-9]( |$))+$|^—$/, `the line is named by cells 1-9: ${pv}`);
  for (const field of ["score", "exact", "plies_to_end", "time", "pv"]) {
    assert.ok(await page.locator(`#engine-info dd[data-field="${field}"]`).count(), `${field} is shown`);
  }
  console.log(`game against alphabeta: ${result}; status "${await page.locator("#status").textContent()}"`);
  await page.screenshot({ path: `${shots}/playground-game-over.png`, fullPage: true });

  // Analyse: a new game as O, alphabeta opens; every empty cell gets a score. At a level the
  // analysis is the full engine's, whatever the level, and says how deep it looked.
  await page.selectOption("#level", "1");
  await page.selectOption("#side", "O");
  await page.waitForFunction(() => document.querySelectorAll("#board .cell.X").length === 1);
  await page.click("#analyse");
  await page.waitForFunction(() => document.getElementById("status").dataset.analysed === "true"
    && document.querySelectorAll("#board .cell .score").length === 8);
  assert.match(await page.locator("#analysis-head").textContent(), /^The full engine, solved/, "tic-tac-toe's engine is its perfect table");
  assert.equal(await page.locator("#analysis li").count(), 8, "every move in the panel");
  assert.match(await page.locator("#analysis li").first().textContent(), /: = /, "a proven value marked =");
  await page.screenshot({ path: `${shots}/playground-analysis-level1.png`, fullPage: true });
  // Or the opponent's own settings, to study an algorithm.
  await page.selectOption("#level", "");
  await page.selectOption("#algorithm", "solver");
  await page.selectOption("#analysis-by", "opponent");
  await page.click("#analyse");
  await page.waitForFunction(() => document.getElementById("status").dataset.analysed === "true"
    && document.querySelectorAll("#board .cell .score").length === 8);
  await page.screenshot({ path: `${shots}/playground-analysis.png`, fullPage: true });
  // Green and red are for proven results: the solver's scores are, mcts's estimates are not.
  assert.ok(await page.locator("#board .score.good, #board .score.bad").count() > 0, "proven scores are coloured");
  await page.selectOption("#algorithm", "mcts");
  await page.click("#analyse");
  await page.waitForFunction(() => document.querySelectorAll("#board .cell .score.estimate").length === 8);
  assert.equal(await page.locator("#board .score.good, #board .score.bad").count(), 0, "estimates are not coloured");

  // An error from the API is shown, not swallowed: a knob out of range.
  await page.fill("#knob-simulations", "0");
  await page.click("#analyse");
  await page.waitForFunction(() => document.getElementById("play-error").textContent.includes("simulations"));
  console.log(`error shown: ${await page.locator("#play-error").textContent()}`);

  // A small tournament: the chart appears with a bar per player and seat and the intervals.
  await page.fill("#games", "40");
  await page.click("#run-tournament");
  await page.waitForSelector("#chart svg");
  assert.ok(await page.locator("#chart svg rect.bar").count() >= 4, "stacked bars");
  assert.equal(await page.locator("#chart svg line.ci").count(), 2, "a confidence interval per player");
  console.log(`tournament: ${await page.locator("#tournament-status").textContent()}`);
  await page.locator("#chart").scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${shots}/playground-tournament.png`, fullPage: true });
  // A longer tournament streams its progress: running totals arrive before the answer, with
  // the Elo interval and the SPRT's state, and the course of the Elo is drawn.
  // The players' settings are fields, as the opponent's are: the chosen algorithm's knobs.
  await page.evaluate(() => document.querySelectorAll("details.player-settings").forEach(d => { d.open = true; }));
  await page.selectOption("#player-a", "mcts");
  await page.fill("#knob-a-simulations", "3000");
  await page.selectOption("#player-b", "alphabeta");
  await page.waitForSelector("#knob-b-depth");
  assert.equal(await page.locator("#knob-b-simulations").count(), 0, "alphabeta has no simulations");
  await page.selectOption("#player-b", "mcts");
  await page.fill("#knob-b-simulations", "1000");
  assert.equal(await page.locator("#knob-a-simulations").inputValue(), "3000", "A's setting stays");
  await page.fill("#games", "3000");
  await page.fill("#random-plies", "2");
  await page.fill("#sprt-elo0", "0");
  await page.fill("#sprt-elo1", "5");
  const sent = page.waitForRequest(request => request.url().endsWith("/tournament"));
  await page.click("#run-tournament");
  assert.deepEqual(JSON.parse((await sent).postData()).players,
    [{ algorithm: "mcts", simulations: 3000 }, { algorithm: "mcts", simulations: 1000 }], "the players as set");
  await page.waitForFunction(() => Number(document.getElementById("tournament-status").dataset.updates || 0) >= 1);
  const during = await page.locator("#tournament-estimate").textContent();
  console.log(`tournament in progress: ${await page.locator("#tournament-status").textContent()} | ${during}`);
  await page.waitForFunction(() => document.getElementById("tournament-status").dataset.done === "true", null, { timeout: 60000 });
  const estimate = await page.locator("#tournament-estimate").textContent();
  assert.match(estimate, /Elo [+-]\d+\.\d \[[+-]\d+\.\d, [+-]\d+\.\d\]/, estimate);
  assert.match(estimate, /SPRT \[0, 5\]: LLR -?\d+\.\d\d in \[-2\.94, 2\.94\]/, estimate);
  assert.equal(await page.locator("#elo-chart svg polyline.elo").count(), 1, "the Elo's course");
  console.log(`tournament streamed: ${await page.locator("#tournament-status").textContent()} | ${estimate}`);
  await page.locator("#elo-chart").scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${shots}/playground-tournament-progress.png`, fullPage: true });
  await page.fill("#random-plies", "0");
  await page.fill("#knob-b-simulations", "");
  await page.fill("#sprt-elo0", "");
  await page.fill("#sprt-elo1", "");
  // A later error does not leave the last chart standing under it.
  await page.fill("#games", "0");
  await page.click("#run-tournament");
  await page.waitForFunction(() => document.getElementById("tournament-error").textContent.includes("games"));
  assert.equal(await page.locator("#chart svg").count(), 0, "the stale chart is gone");
  assert.equal(await page.locator("#tournament-status").textContent(), "");

  // Connect Four on a phone-sized screen: nothing wider than the screen, and a move plays.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.selectOption("#algorithm", "alphabeta");
  await page.selectOption("#side", "X");
  await page.selectOption("#game", "connect4");
  await page.waitForFunction(() => document.querySelectorAll("#board .cell").length === 42);
  await boardFits(page, "Connect Four on a phone");
  await page.locator('#board .cell[data-move="4"]').first().click();
  await page.waitForFunction(() => document.querySelectorAll("#board .cell.O").length === 1, null, { timeout: 15000 });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `the page is ${overflow}px wider than a phone's screen`);
  await page.screenshot({ path: `${shots}/playground-phone-connect4.png`, fullPage: true });

  // Gomoku on the phone: the columns lettered and the rows numbered as its moves name them
  // (a1 bottom left), and cells a finger can hit once zoomed, the board scrolling inside its
  // frame while the page stays as wide as the screen.
  await page.selectOption("#game", "gomoku");
  await page.waitForFunction(() => document.querySelectorAll("#board .cell").length === 225);
  await boardFits(page, "gomoku on a phone");
  assert.equal(await page.locator("#board .cell").first().getAttribute("data-rank"), "15", "the top row is 15");
  assert.equal(await page.locator("#board .cell").last().getAttribute("data-file"), "o", "the last column is o");
  assert.equal(await page.locator('#board .cell[data-cell="210"]').getAttribute("aria-label"), "a1: empty");
  const small = await page.locator('#board .cell[data-cell="112"]').boundingBox();
  await page.click("#zoom");
  const large = await page.locator('#board .cell[data-cell="112"]').boundingBox();
  console.log(`gomoku on a phone: cells of ${Math.round(small.width)}px, ${Math.round(large.width)}px zoomed`);
  assert.ok(large.width >= 36, `zoomed cells of ${large.width}px`);
  await page.locator('#board .cell[data-cell="112"]').scrollIntoViewIfNeeded();
  await page.locator('#board .cell[data-cell="112"]').click();
  await page.waitForFunction(() => document.querySelectorAll("#board .cell.O").length === 1, null, { timeout: 15000 });
  assert.equal(await page.locator("#move-list li").first().textContent(), "1.X h8");
  const wider = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(wider <= 0, `zoomed, the page is ${wider}px wider than a phone's screen`);
  await page.screenshot({ path: `${shots}/playground-phone-gomoku.png`, fullPage: true });
  await page.click("#zoom");
  await page.click("#new-game");

  // Gomoku, which the page knows only from GET /games: a 15 x 15 board, a move in the
  // centre, the engine's reply in its notation.
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.selectOption("#game", "gomoku");
  await page.waitForFunction(() => document.querySelectorAll("#board .cell").length === 225);
  await boardFits(page, "gomoku at 1280 x 900");
  await page.locator('#board .cell[data-cell="112"]').click();
  await page.waitForFunction(() => document.querySelectorAll("#board .cell.O").length === 1, null, { timeout: 15000 });
  assert.equal(await page.locator('#board .cell[data-cell="112"]').getAttribute("class"), "cell X");
  const reply = await page.locator("#move-list li").nth(1).textContent();
  assert.match(reply, /^2\.O [a-o]([1-9]|1[0-5])$/, `the engine's move in gomoku's notation: ${reply}`);
  console.log(`gomoku: ${await page.locator("#move-list").textContent()}`);
  await page.screenshot({ path: `${shots}/playground-gomoku.png`, fullPage: true });

  // Othello: the legal squares marked, the discs counted, a move and the reply in its
  // notation; then a position where the human has no square, whose one move is the pass button.
  await page.selectOption("#game", "othello");
  await page.waitForFunction(() => document.querySelectorAll("#board .cell").length === 64
    && document.querySelectorAll("#board .cell.legal").length === 4);
  await boardFits(page, "othello at 1280 x 900");
  // Drawn as Othello is played: black and white discs on green, not letters.
  assert.match(await page.locator("#board").getAttribute("class"), /\bdiscs\b/);
  assert.equal(await page.locator("#board .disc.X").count(), 2);
  assert.equal(await page.locator("#board .disc.O").count(), 2);
  assert.equal(await page.locator('#board .cell[data-cell="28"]').getAttribute("aria-label"), "e4: Black disc");
  await page.screenshot({ path: `${shots}/playground-othello-start.png`, fullPage: true });
  await page.evaluate(() => { document.getElementById("settings").open = true; });
  await page.fill("#knob-time_limit_ms", "100");
  assert.equal(await page.locator('#sides .count[data-side="X"]').textContent(), " · 2");
  await page.locator('#board .cell[data-cell="19"]').click();
  await page.waitForFunction(() => document.querySelectorAll("#move-list li").length === 2, null, { timeout: 15000 });
  const othelloReply = (await page.locator("#move-list li").nth(1).textContent()).slice(4);
  assert.match(othelloReply, /^[a-h][1-8]$/);
  // The engine's reply is marked as the last move, and valued in discs, its depth given.
  assert.equal(await page.locator("#board .cell.last").count(), 1);
  assert.match(await page.locator("#board .cell.last").getAttribute("aria-label"), new RegExp(`^${othelloReply}: White disc, the last move$`));
  assert.match(await page.locator('#engine-info dd[data-field="score"]').textContent(), /^[+-]?\d+\.\d discs expected for (Black|White)$/);
  assert.match(await page.locator('#engine-info dd[data-field="depth"]').textContent(), /^[1-9]\d* \(\d+ at the deepest\)$/);
  assert.equal(await page.locator("#pass-row").isHidden(), true, "no pass while a square is legal");
  await page.evaluate(() => { document.getElementById("setup").open = true; });
  await page.fill("#setup-board", "");
  await page.fill("#position", "d3 c3 b3 b2 f5 a3 a1 c1");
  await page.click("#load-position");
  await page.waitForFunction(() => !document.getElementById("pass-row").hidden);
  assert.equal(await page.locator("#board .cell.legal").count(), 0, "no square is legal");
  await page.click("#pass");
  await page.waitForFunction(() => document.querySelectorAll("#move-list li").length === 10, null, { timeout: 15000 });
  assert.match(await page.locator("#move-list li").nth(8).textContent(), /pass$/);
  console.log(`othello: ${await page.locator("#move-list").textContent()}; ${await page.locator("#sides").textContent()}`);
  await page.screenshot({ path: `${shots}/playground-othello.png`, fullPage: true });
  // Othello's engine is the engine kit's with Othello's steps: a table to size and a node limit
  // to set, its own steps to turn off and none of chess's (no null move, no terms).
  await page.selectOption("#algorithm", "engine");
  await page.waitForSelector("#knob-nodes");
  assert.equal(await page.locator("#knob-hash_mb").count(), 1, "Othello's engine has a table to size");
  const steps = await page.locator("#knob-without option").allTextContents();
  assert.ok(steps.includes("aspiration") && !steps.includes("null_move") && !steps.includes("terms"),
    `Othello's steps, not chess's: ${steps}`);
  // A solved analysis gives each square's final disc difference (FFO #1: +18 at best).
  await page.selectOption("#algorithm", "solver");
  await page.fill("#knob-time_limit_ms", "5000");
  await page.fill("#setup-board", "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X");
  await page.fill("#position", "");
  await page.click("#load-position");
  await page.waitForFunction(() => document.querySelectorAll("#board .cell.X").length === 27);
  await page.click("#analyse");
  await page.waitForFunction(() => document.querySelectorAll("#board .cell .score").length > 0, null, { timeout: 15000 });
  const margins = await page.locator("#board .cell .score").allTextContents();
  assert.ok(margins.every(margin => /^=(\+\d+|-\d+|0)$/.test(margin)), `proven margins, marked =: ${margins}`);
  assert.ok(margins.includes("=+18"), `FFO #1 is won by 18: ${margins}`);
  assert.equal(await page.locator("#board .score.proven").count(), margins.length, "proven values on their badge");
  // The coordinates are outside the squares: files along the top, ranks down the left.
  assert.equal(await page.locator("#board .coord").count(), 17, "a corner, 8 files, 8 ranks");
  assert.deepEqual(await page.locator("#board .coord").evaluateAll(labels => labels.slice(1, 9).map(l => l.textContent)), ["a", "b", "c", "d", "e", "f", "g", "h"]);
  assert.equal(await page.locator("#board .cell[data-rank], #board .cell[data-file]").count(), 0, "no label inside a square");
  console.log(`othello, solved: ${margins.join(" ")}`);
  await page.screenshot({ path: `${shots}/playground-othello-solved.png`, fullPage: true });
  // A middle game's analysis by the engine: every legal square valued in discs expected.
  await page.selectOption("#algorithm", "engine");
  await page.fill("#knob-time_limit_ms", "300");
  await page.fill("#setup-board", "");
  await page.fill("#position", "f5 d6 c3 d3 c4 f4 c5 b3 c2 e6 c6 b4");
  await page.click("#load-position");
  await page.waitForFunction(() => document.querySelectorAll("#board .disc").length === 16);
  await page.click("#analyse");
  await page.waitForFunction(() => document.querySelectorAll("#board .cell .score").length > 0, null, { timeout: 15000 });
  const estimates = await page.locator("#board .cell .score").allTextContents();
  assert.ok(estimates.length >= 5 && estimates.every(value => /^≈[+-]?\d+\.\d$/.test(value)), `discs expected, marked ≈: ${estimates}`);
  console.log(`othello, a middle game in discs: ${estimates.join(" ")}`);
  await page.screenshot({ path: `${shots}/playground-othello-analysis.png`, fullPage: true });

  // Chess, drawn by the page from POST /position: the engine is the default opponent; a pawn
  // is moved by clicking it and then its square, the engine answers, the move list is in SAN
  // and the engine's line, depth and centipawns are shown.
  await page.selectOption("#game", "chess");
  await page.waitForFunction(() => document.querySelectorAll("#board .cell").length === 64
    && document.querySelector('#board [data-square="e2"]')?.textContent === "♙");
  assert.equal(await page.locator("#algorithm").inputValue(), "engine", "chess's default opponent");
  assert.equal(await page.locator("#tournament-game").inputValue(), "chess", "the tournament plays the game chosen above it");
  await boardFits(page, "chess at 1280 x 900");
  await page.evaluate(() => { document.getElementById("settings").open = true; });
  await page.fill("#knob-time_limit_ms", "100");
  await page.locator('#board [data-square="e2"]').click();
  assert.equal(await page.locator("#board .cell.target").count(), 2, "e2 goes to e3 or e4");
  await page.locator('#board [data-square="e4"]').click();
  await page.waitForFunction(() => document.querySelectorAll("#move-list li").length === 2, null, { timeout: 15000 });
  assert.equal(await page.locator("#move-list li").first().textContent(), "1.e4");
  const answer = await page.locator("#move-list li").nth(1).textContent();
  // Numbered as chess writes a game, "1. e4 e5": Black's reply carries no number of its own.
  assert.match(answer, /^([NBRQK]?[a-h]?[1-8]?x?[a-h][1-8]|O-O)[+#]?$/, `Black's reply in SAN: ${answer}`);
  for (const field of ["depth", "nodes", "pv"]) {
    assert.ok((await page.locator(`#engine-info dd[data-field="${field}"]`).textContent()).length > 0, field);
  }
  // One scale, as chess players read it: pawns (or moves to mate) from White's view, and the
  // evaluation bar with White's share.
  assert.match(await page.locator('#engine-info dd[data-field="score"]').textContent(), /^([+-]\d+\.\d\d|#-?\d+) \(White's view\)$/);
  assert.ok(await page.locator("#eval-bar").isVisible(), "the evaluation bar is shown");
  const share = Number(await page.locator("#eval-bar").getAttribute("aria-valuenow"));
  assert.ok(share >= 0 && share <= 100, `White's share: ${share}`);
  await page.screenshot({ path: `${shots}/playground-chess.png`, fullPage: true });

  // The engine is watched as it deepens: an analysis of two seconds streams its iterations
  // (depth, score, line) before its answer, which then replaces them.
  await page.fill("#knob-time_limit_ms", "2000");
  await page.click("#analyse");
  await page.waitForFunction(() => Number(document.getElementById("thinking").dataset.depth) >= 4, null, { timeout: 15000 });
  const thinking = await page.locator("#thinking").textContent();
  assert.match(thinking, /^depth \d+\/\d+ · ([+-]\d+\.\d\d|#-?\d+) · [\d,]+ nodes · 2\. \S+/, `an iteration, its line numbered from White's second move: ${thinking}`);
  assert.equal(await page.locator("#analysis").count(), 0, "the iterations come before the answer");
  await page.screenshot({ path: `${shots}/playground-chess-thinking.png`, fullPage: true });
  await page.waitForSelector("#analysis", { timeout: 15000 });
  assert.match(await page.locator("#analysis-head").textContent(), /depth \d+/, "the analysis says how deep it looked");
  await page.waitForSelector("#analysis", { timeout: 15000 });
  assert.ok(await page.locator("#thinking").isHidden(), "the answer replaces the iterations");
  assert.equal(await page.locator("#board .cell.best").count(), 2, "the best move's squares are marked");
  const line = await page.locator("#analysis li").first().textContent();
  assert.match(line, /\(2\. \S+ \S+ 3\. /, `a line numbered as a game is: ${line}`);
  console.log(`chess, watched: ${thinking}`);
  await page.fill("#knob-time_limit_ms", "100");

  // A promotion from a position set up by FEN: the player picks the piece, and a knight
  // (not the queen a page might assume) is what lands.
  await page.evaluate(() => { document.getElementById("setup").open = true; });
  await page.fill("#setup-board", "8/4P2p/8/8/8/8/k7/4K3 w - - 0 1");
  await page.fill("#position", "");
  await page.click("#load-position");
  await page.waitForFunction(() => document.querySelector('#board [data-square="e7"]').textContent === "♙");
  await page.locator('#board [data-square="e7"]').click();
  await page.locator('#board [data-square="e8"]').click();
  await page.waitForSelector("#promotion:not([hidden])");
  assert.equal(await page.locator("#promotion button").count(), 4, "queen, rook, bishop, knight");
  await page.locator('#promotion button[data-promotion="n"]').click();
  await page.waitForFunction(() => document.querySelectorAll("#move-list li").length === 2, null, { timeout: 15000 });
  assert.equal(await page.locator("#move-list li").first().textContent(), "1.e8=N");
  assert.equal(await page.locator('#board [data-square="e8"]').textContent(), "♘");
  console.log(`chess: ${await page.locator("#move-list").textContent()}`);

  // A bad FEN is refused with what is wrong, and the game stays as it was.
  await page.fill("#setup-board", "8/8/8/8/8/8/8/8 w - - 0 1");
  await page.click("#load-position");
  await page.waitForFunction(() => document.getElementById("play-error").textContent.includes("board"));
  assert.match(await page.locator("#play-error").textContent(), /empty/);
  assert.equal(await page.locator("#move-list li").count(), 2, "a refused board changes nothing");

  // Chess as Black: the board turns so that Black's pieces are at the bottom (h1 top left, a8
  // bottom right) with the ranks down the left edge and the files along the bottom; the
  // engine opens as White, the evaluation bar shows, the status names the sides as chess does;
  // and the opponent's settings survive the change of side and a new game.
  await page.fill("#knob-time_limit_ms", "150");
  await page.fill("#knob-depth", "3");
  await page.selectOption("#side", "O");
  await page.waitForFunction(() => document.querySelectorAll("#move-list li").length === 1, null, { timeout: 15000 });
  assert.equal(await page.locator("#knob-depth").inputValue(), "3", "the depth survives the change of side");
  assert.equal(await page.locator("#knob-time_limit_ms").inputValue(), "150", "and the time limit");
  const corners = await page.evaluate(() => {
    const cells = document.querySelectorAll("#board .cell");
    return [cells[0].dataset.square, cells[63].dataset.square];
  });
  assert.deepEqual(corners, ["h1", "a8"], "Black's view: h1 top left, a8 bottom right");
  const labels = await page.evaluate(() => ["h1", "h8", "a8", "d4"].map(square => {
    const cell = document.querySelector(`#board [data-square="${square}"]`);
    return [getComputedStyle(cell, "::before").content, getComputedStyle(cell, "::after").content];
  }));
  assert.deepEqual(labels, [['"1"', "none"], ['"8"', '"h"'], ["none", '"a"'], ["none", "none"]], "ranks on the left, files at the bottom");
  assert.equal(await page.locator("#status").textContent(), "Your move (Black).");
  assert.ok(await page.locator("#eval-bar").isVisible(), "the evaluation bar after the engine's move");
  await page.screenshot({ path: `${shots}/playground-chess-black.png`, fullPage: true });
  await page.click("#new-game");
  await page.waitForFunction(() => document.querySelectorAll("#move-list li").length === 1, null, { timeout: 15000 });
  assert.equal(await page.locator("#knob-depth").inputValue(), "3", "the depth survives a new game");
  assert.equal(await page.locator("#knob-time_limit_ms").inputValue(), "150", "and the time limit");
  assert.equal(await page.locator("#board").getAttribute("data-flipped"), "true");
  console.log(`chess as Black: ${await page.locator("#move-list").textContent()}; ${await page.locator("#eval-bar").textContent()}`);

  // At a level the analysis is still the full engine's, and where it deepens (chess, unlike
  // tic-tac-toe's table) it says how deep it looked.
  await page.selectOption("#level", "1");
  await page.selectOption("#analysis-by", "engine");
  await page.waitForFunction(() => document.querySelectorAll("#move-list li").length === 1 && !document.getElementById("analyse").disabled, null, { timeout: 15000 });
  await page.click("#analyse");
  await page.waitForFunction(() => document.getElementById("status").dataset.analysed === "true", null, { timeout: 20000 });
  const levelHead = await page.locator("#analysis-head").textContent();
  assert.match(levelHead, /^The full engine, depth \d+/, `the level's analysis is the full engine's: ${levelHead}`);
  await page.screenshot({ path: `${shots}/playground-analysis-level1-chess.png`, fullPage: true });

  // The game downloaded as PGN: named for the game, the engine's move with its evaluation,
  // depth and time as match runners write them; python-chess reads it back
  // (scripts/browser-test.sh).
  await page.waitForFunction(() => !document.getElementById("download").disabled);
  assert.equal(await page.locator("#download-row").isVisible(), true, "chess's game can be downloaded");
  assert.deepEqual(await page.locator("#record-format option").evaluateAll(options => options.map(o => o.value)), ["PGN"]);
  const [pgnDownload] = await Promise.all([page.waitForEvent("download"), page.click("#download")]);
  assert.match(pgnDownload.suggestedFilename(), /^sente-chess-\d{8}-\d{6}\.pgn$/, "named for the game and its start");
  const pgnPath = `${shots}/chess-game.pgn`;
  await pgnDownload.saveAs(pgnPath);
  const pgn = readFileSync(pgnPath, "utf8");
  assert.match(pgn, /\[White "Sente \([^"]+\)"\]\n\[Black "You"\]\n\[Result "\*"\]/, pgn);
  assert.match(pgn, /\n\n1\. \S+ \{[+-]\d+\.\d\d\/\d+ \d+\.\d{3}s\} \*\n/, `the engine's move with its evaluation: ${pgn}`);
  writeFileSync(`${shots}/chess-game.json`, JSON.stringify(await page.evaluate(() => state.moves)));

  // A game reviewed (POST /review): Scholar's mate pasted as a PGN record (its tags, move
  // numbers, a comment, a variation and the result left out), every move judged by the full
  // engine (the plies counted as they stream in), Black's Nf6 (which lets the queen mate)
  // marked ??, each side's accuracy, and the graph of White's chances, which a click moves
  // along.
  await page.fill("#setup-board", "");
  await page.fill("#position", '[Event "Scholar\'s mate"]\n[Result "1-0"]\n\n1. e4 e5 2. Qh5 {early} Nc6 (2... g6) 3. Bc4 Nf6?? 4. Qxf7# 1-0\n');
  await page.click("#load-position");
  await page.waitForFunction(() => document.querySelectorAll("#move-list li").length === 7 && !document.getElementById("review").disabled, null, { timeout: 15000 });
  await page.click("#review");
  await page.waitForFunction(() => document.getElementById("status").dataset.reviewed === "true" && !document.getElementById("review-panel").hidden, null, { timeout: 30000 });
  assert.equal(await page.locator("#move-list li").nth(5).getAttribute("data-class"), "blunder", "Nf6 lets the queen mate");
  assert.equal(await page.locator("#move-list li .mark.blunder").first().textContent(), "??");
  assert.match(await page.locator("#review-sides").textContent(), /White: accuracy \d+(\.\d)?.*Black: accuracy \d+(\.\d)?.* 1 blunder/);
  assert.equal(await page.locator("#review-graph polygon").count(), 1, "the graph is drawn");
  const graph = await page.locator("#review-graph").boundingBox();
  await page.mouse.click(graph.x + graph.width * 6 / 7, graph.y + graph.height / 2);
  assert.match(await page.locator("#review-ply").textContent(), /^6\. Black Nf6: blunder \(best /, "a click on the graph shows that move");
  await page.screenshot({ path: `${shots}/playground-review-chess.png`, fullPage: true });
  console.log(`chess reviewed: ${await page.locator("#review-sides").textContent()}`);
  await page.selectOption("#level", "");

  // Shogi: the kanji on a 9 x 9 board, squares named as USI names them (7g), each side's hand;
  // a pawn moved by clicks and the engine's answer; the letters' switch; from a position set up
  // by SFEN, the promotion offered as a choice, and a piece dropped from the hand.
  await page.selectOption("#side", "X");
  await page.selectOption("#game", "shogi");
  await page.waitForFunction(() => document.querySelectorAll("#board .cell").length === 81
    && document.querySelector('#board [data-square="7g"]')?.textContent === "歩");
  assert.equal(await page.locator("#algorithm").inputValue(), "engine", "shogi's default opponent");
  await boardFits(page, "shogi at 1280 x 900");
  assert.ok(await page.locator("#hand-bottom").isVisible(), "the hands are shown");
  // A shogi board: lines between the squares, files 9 to 1 along the top and ranks 一 to 九 down
  // the right, outside the squares, and the promotion zones shaded.
  const ruling = await page.evaluate(() => {
    const board = document.getElementById("board");
    const cell = board.querySelector('[data-square="5e"]');
    const style = getComputedStyle(cell);
    const files = [...board.querySelectorAll(".coord.file")].map(label => label.textContent);
    const ranks = [...board.querySelectorAll(".coord.rank")].map(label => label.textContent);
    const inside = [...board.querySelectorAll(".coord")].some(label => {
      const box = label.getBoundingClientRect();
      return [...board.querySelectorAll(".cell")].some(square => {
        const other = square.getBoundingClientRect();
        return box.left < other.right - 1 && box.right > other.left + 1 && box.top < other.bottom - 1 && box.bottom > other.top + 1;
      });
    });
    return { right: parseFloat(style.borderRightWidth), bottom: parseFloat(style.borderBottomWidth), line: style.borderRightColor,
      files: files.join(""), ranks: ranks.join(""), inside, zone: board.querySelectorAll(".cell.zone").length,
      zoneColour: getComputedStyle(board.querySelector('[data-square="5c"]')).backgroundColor, middle: style.backgroundColor };
  });
  assert.ok(ruling.right >= 1 && ruling.bottom >= 1, `lines between the squares: ${JSON.stringify(ruling)}`);
  assert.equal(ruling.files, "987654321", "files 9 to 1 along the top");
  assert.equal(ruling.ranks, "一二三四五六七八九", "ranks 一 to 九 down the right");
  assert.equal(ruling.inside, false, "no coordinate over a square");
  assert.equal(ruling.zone, 54, "three ranks at each end are promotion zones");
  assert.notEqual(ruling.zoneColour, ruling.middle, "and they are shaded");
  await page.screenshot({ path: `${shots}/playground-shogi-start.png`, fullPage: true });
  await page.evaluate(() => { document.getElementById("settings").open = true; });
  await page.fill("#knob-time_limit_ms", "100");
  await page.locator('#board [data-square="7g"]').click();
  assert.equal(await page.locator("#board .cell.target").count(), 1, "7g goes to 7f");
  await page.locator('#board [data-square="7f"]').click();
  await page.waitForFunction(() => document.querySelectorAll("#move-list li").length === 2, null, { timeout: 15000 });
  assert.match(await page.locator("#move-list li").first().textContent(), /７六歩/);
  assert.equal(await page.locator('#board [data-square="5a"] span').getAttribute("class"), "upside-down", "Gote's pieces face Sente");
  // The engine's evaluation in shogi's units: whole centipawns from Sente's view.
  const shogiScore = await page.locator('#engine-info [data-field="score"]').textContent();
  assert.match(shogiScore, /^[+-]\d+ \(centipawns, Sente's view\)$/, `an integer evaluation: ${shogiScore}`);
  await page.check("#letters");
  assert.equal(await page.locator('#board [data-square="5i"]').textContent(), "K");
  assert.equal(await page.locator('#board [data-square="5a"]').textContent(), "k");
  assert.equal(await page.locator("#board .coord.rank").first().textContent(), "a", "ranks lettered with the letters");
  await page.uncheck("#letters");
  await page.evaluate(() => { document.getElementById("setup").open = true; });
  // The position box takes what shogi tools copy: a SFEN after `sfen`, USI's position command
  // with or without a SFEN, and a KIF or KI2 move list.
  // Each set-up is awaited by what it puts on the board, a square and the piece there.
  const setUp = async (board, moves, [square, piece], what) => {
    await page.fill("#setup-board", board);
    await page.fill("#position", moves);
    await page.click("#load-position");
    await page.waitForFunction(([square, piece]) => document.querySelector(`#board [data-square="${square}"]`)?.textContent === piece
      && !document.getElementById("load-position").disabled, [square, piece], { timeout: 15000 });
    assert.equal(await page.locator("#play-error").textContent(), "", what);
  };
  await setUp("position startpos moves 7g7f 3c3d", "", ["3d", "歩"], "USI's position startpos");
  assert.equal(await page.locator("#move-list li").count(), 2, "two plies");
  await setUp("position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 moves 2g2f 8c8d", "", ["8d", "歩"], "USI's position sfen");
  assert.equal(await page.locator('#board [data-square="2f"]').textContent(), "歩", "2g2f played");
  await setUp("sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1", "", ["8c", "歩"], "a SFEN after sfen");
  assert.equal(await page.locator("#move-list li").count(), 0, "no move");
  await setUp("", "手数----指手---------消費時間--\n   1 ７六歩(77)   ( 0:01/00:00:01)\n   2 ３四歩(33)   ( 0:02/00:00:02)\n   3 ２二角成(88) ( 0:01/00:00:02)\n   4 同　銀(31)   ( 0:01/00:00:03)\n", ["2b", "銀"], "a KIF move list");
  assert.equal(await page.locator("#move-list li").count(), 4, "four plies from KIF");
  // Shown as KI2, one number a ply, as a KIF numbers them.
  assert.deepEqual(await page.locator("#move-list li").allTextContents(), ["1▲７六歩", "2△３四歩", "3▲２二角成", "4△同　銀"], "a pasted KIF listed as KI2");
  await page.screenshot({ path: `${shots}/playground-shogi-kif.png`, fullPage: true });
  await setUp("", "▲７六歩    △３四歩    ▲２六歩", ["2f", "歩"], "a KI2 move list");
  assert.match(await page.locator("#move-list").textContent(), /^1▲７六歩2△３四歩3▲２六歩4△/, "three plies from KI2, then the engine's");
  await page.screenshot({ path: `${shots}/playground-shogi-ki2.png`, fullPage: true });
  await setUp("", "+7776FU\nT1\n-3334FU\nT2\n%TORYO", ["3d", "歩"], "a CSA move list");
  await setUp("", "position startpos moves 2g2f 8c8d", ["8d", "歩"], "a position command in the Moves box");
  await page.fill("#position", "");
  await page.fill("#setup-board", "4k4/9/4P4/7P1/9/9/9/9/4K4 b G 1");
  await page.fill("#position", "");
  await page.click("#load-position");
  await page.waitForFunction(() => document.querySelector('#board [data-square="2d"]')?.textContent === "歩");
  assert.match(await page.locator("#hand-bottom").textContent(), /金/, "the gold in hand");
  await page.screenshot({ path: `${shots}/playground-shogi-sparse.png`, fullPage: true });
  // Analysed: each move's evaluation in centipawns, or a mate counted in plies.
  await page.click("#analyse");
  await page.waitForSelector("#analysis li", { timeout: 20000 });
  const lines = await page.locator("#analysis li").allTextContents();
  assert.ok(lines.every(line => /: [=≈] ([+-]\d+|[▲△]詰み \d+手)( |$)/.test(line)), `shogi's units in the analysis, proven or not: ${lines.slice(0, 3)}`);
  assert.ok(lines.some(line => /▲詰み \d+手/.test(line)), `a mate found, in plies: ${lines.slice(0, 3)}`);
  await page.screenshot({ path: `${shots}/playground-shogi-evaluations.png`, fullPage: true });
  await page.locator('#board [data-square="2d"]').click();
  await page.locator('#board [data-square="2c"]').click();
  await page.waitForSelector("#promotion:not([hidden])");
  assert.equal(await page.locator("#promotion button").count(), 2, "promote, or not");
  await page.locator('#promotion button[data-promotion="+"]').click();
  await page.waitForFunction(() => document.querySelectorAll("#move-list li").length === 2, null, { timeout: 15000 });
  assert.equal(await page.locator('#board [data-square="2c"]').textContent(), "と", "the pawn promoted");
  await page.locator('#hand-bottom button[data-piece="金"]').click();
  const drops = await page.locator("#board .cell.target").count();
  assert.ok(drops > 40, `the gold may be dropped on any empty square: ${drops}`);
  const empty = await page.evaluate(() => [...document.querySelectorAll("#board .cell.target")].map(c => c.dataset.square).find(sq => sq === "9i") || document.querySelector("#board .cell.target").dataset.square);
  await page.locator(`#board [data-square="${empty}"]`).click();
  await page.waitForFunction(() => document.querySelectorAll("#move-list li").length === 4, null, { timeout: 15000 });
  assert.match(await page.locator("#move-list li").nth(2).textContent(), /金打|金/, "the drop is in the move list");
  await page.screenshot({ path: `${shots}/playground-shogi.png`, fullPage: true });
  console.log(`shogi: ${await page.locator("#move-list").textContent()}`);

  // A game from the start downloaded as KIF ("Download the game"): Shift_JIS, named for the
  // game, each move with its time, the engine's moves and an analysed one with evaluations.
  // Read back by Sente (the KIF pasted into the position box sets up the same game) and, by
  // scripts/browser-test.sh, by cshogi's KIF parser.
  await page.click("#new-game");
  await page.waitForFunction(() => document.querySelector('#board [data-square="7g"]')?.textContent === "歩" && !document.getElementById("analyse").disabled);
  await page.locator('#board [data-square="7g"]').click();
  await page.locator('#board [data-square="7f"]').click();
  await page.waitForFunction(() => document.querySelectorAll("#move-list li").length === 2 && !document.getElementById("analyse").disabled, null, { timeout: 15000 });
  await page.click("#analyse");
  await page.waitForSelector("#analysis li", { timeout: 20000 });
  await page.waitForFunction(() => !document.getElementById("analyse").disabled);
  const [from, to] = await page.evaluate(() => {
    const move = state.position.legal_moves.find(m => m.from && state.scores.some(entry => entry.move === m.move));
    return [move.move.slice(0, 2), move.move.slice(2, 4)];
  });
  await page.locator(`#board [data-square="${from}"]`).click();
  await page.locator(`#board [data-square="${to}"]`).click();
  if (await page.locator("#promotion").isVisible()) await page.locator('#promotion button[data-promotion="+"]').click();
  await page.waitForFunction(() => document.querySelectorAll("#move-list li").length === 4 && !document.getElementById("download").disabled, null, { timeout: 15000 });
  assert.equal(await page.locator("#download-row").isVisible(), true, "shogi's game can be downloaded");
  assert.deepEqual(await page.locator("#record-format option").evaluateAll(options => options.map(o => o.value)), ["KIF", "KIFU", "CSA"]);
  const [download] = await Promise.all([page.waitForEvent("download"), page.click("#download")]);
  assert.match(download.suggestedFilename(), /^sente-shogi-\d{8}-\d{6}\.kif$/, "named for the game and its start");
  const kifPath = `${shots}/shogi-game.kif`;
  await download.saveAs(kifPath);
  const kif = new TextDecoder("shift_jis").decode(readFileSync(kifPath));
  assert.match(kif, /^#KIF version=2\.0 encoding=Shift_JIS\n/, kif);
  assert.match(kif, /先手：You\n後手：Sente \(engine\)\n/, kif);
  assert.match(kif, /\n   1 ７六歩\(77\) +\( \d:\d\d\/00:\d\d:\d\d\)\n   2 [^\n]+\n\*\*対局 時間 \d\d:\d\d\.\d 深さ \d+ ノード数 \d+ (評価値 -?\d+|[+-]詰\d+) 読み筋 △/, kif);
  assert.match(kif, /\n   3 [^\n]+\n\*\*対局 時間 [^\n]*評価値/, `the analysed move's value: ${kif}`);
  assert.match(kif, /\n   5 中断\nまで4手で中断\n/, kif);
  const played = await page.evaluate(() => state.moves);
  const board = await page.evaluate(() => state.position.board);
  writeFileSync(`${shots}/shogi-game.json`, JSON.stringify(played));
  // Sente reads it back: the file's text in the position box sets up the same four moves.
  await page.fill("#setup-board", "");
  await page.fill("#position", kif);
  await page.click("#load-position");
  await page.waitForFunction(() => document.querySelectorAll("#move-list li").length >= 4 && !document.getElementById("load-position").disabled, null, { timeout: 15000 });
  assert.equal(await page.locator("#play-error").textContent(), "", "the KIF is read back");
  assert.equal(await page.evaluate(() => state.position.ply), 4, "four moves read back from the KIF");
  assert.equal(await page.evaluate(() => state.position.board), board, "the same position, read back from the KIF");
  console.log(`shogi's KIF: ${kif.split("\n").length} lines, read back by the page`);

  // The same game reviewed: each move judged, shogi's marks where a move slipped, Sente's and
  // Gote's accuracy.
  await page.click("#review");
  await page.waitForFunction(() => document.getElementById("status").dataset.reviewed === "true" && !document.getElementById("review-panel").hidden, null, { timeout: 30000 });
  assert.match(await page.locator("#review-sides").textContent(), /Sente: accuracy .*Gote: accuracy /);
  assert.ok(await page.locator("#move-list li[data-class]").count() >= 4, "every move judged");
  await page.screenshot({ path: `${shots}/playground-review-shogi.png`, fullPage: true });
  console.log(`shogi reviewed: ${await page.locator("#review-sides").textContent()}`);

  assert.deepEqual(foreign, [], "every request goes to the service itself");
  assert.deepEqual(consoleErrors.filter(text => !text.includes("422")), [], "no script errors");
} catch (error) {
  failures.push(error);
  // What the page showed when the test failed, to read in the CI's artifacts.
  for (const open of browser.contexts().flatMap(context => context.pages())) {
    await open.screenshot({ path: `${shots}/playground-failure.png`, fullPage: true }).catch(() => {});
  }
} finally {
  await browser.close();
}
/// The board's last row is within the screen without scrolling.
async function boardFits(page, context) {
  const [bottom, right, panel] = await page.evaluate(() => {
    window.scrollTo(0, 0);
    const cells = document.querySelectorAll("#board .cell");
    const last = cells[cells.length - 1].getBoundingClientRect();
    return [last.bottom, last.right, document.getElementById("board").parentElement.getBoundingClientRect().right];
  });
  const height = page.viewportSize().height;
  assert.ok(bottom <= height, `${context}: the board's last row ends at ${bottom}px, below the ${height}px screen`);
  assert.ok(right <= panel, `${context}: the board's last column ends at ${right}px, past its panel's ${panel}px`);
  console.log(`${context}: the board ends at ${Math.round(bottom)} of ${height}px`);
}

if (failures.length) {
  console.error(failures[0]);
  process.exit(1);
}
console.log(`browser test passed; screenshots in ${shots}`);
