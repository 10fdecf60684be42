// accounttext.test.ts — what the account pages, the lobby and the profiles
// say (accounttext.ts), and the game screen's words for games between
// accounts (gametext.ts): names and passwords checked before sending, the
// server's refusals in words, ratings with "?", "lost on time" and
// "aborted", a profile's game lines, who may abort.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { accountError, endReason, gameLine, nameProblem, passwordProblem, plotPoints, ratingHistory, ratingText, sessionLine, takerColour } from "../../../web/src/accounttext";
import { accountGame, canAbort, claimView, endText, rematchDeclinedText, rematchView, resultText, statusText, whoText } from "../../../web/src/gametext";
import type { Game } from "../../../web/src/types";

function game(over: Partial<Game>): Game {
  return {
    id: "x", game: "epaminondas", options: "", white: "human", black: "human", moves: [], tomove: "white", over: false,
    winner: "none", score: [0, 0], legal: [], legalGroups: [], ply: 0, seat: "white", resigned: null, thinking: false,
    accounts: { white: "alice", black: "bob" }, rated: true, end: null, clock: null,
    view: { width: 14, height: 12, phase: "", last: "", info: "", squares: {}, sides: {} as Game["view"]["sides"], regions: [] },
    ...over,
  };
}

describe("account words (accounttext.ts)", () => {
  test("names: 3 to 20 of A-Z a-z 0-9 _ -", () => {
    for (const ok of ["bob", "Alice_99", "a-b", "x".repeat(20)]) assert.equal(nameProblem(ok), "", ok);
    assert.match(nameProblem("ab"), /3 to 20/);
    assert.match(nameProblem("x".repeat(21)), /3 to 20/);
    assert.match(nameProblem("bob smith"), /letters/);
    assert.match(nameProblem("bøb"), /letters/);
  });

  test("passwords: 8 to 256 bytes (UTF-8)", () => {
    assert.equal(passwordProblem("12345678"), "");
    assert.match(passwordProblem("1234567"), /at least 8/);
    assert.equal(passwordProblem("éééé"), "", "4 letters, 8 bytes");
    assert.equal(passwordProblem("x".repeat(256)), "");
    assert.match(passwordProblem("x".repeat(257)), /256/);
    assert.match(passwordProblem("é".repeat(129)), /256/, "129 letters, 258 bytes");
  });

  test("the server's refusals in words", () => {
    assert.match(accountError("signup", 409, "name taken"), /taken/);
    assert.equal(accountError("signin", 401, "wrong"), "Wrong name or password.");
    assert.match(accountError("signin", 429, "too many failed sign-ins for this name"), /Too many failed attempts/);
    assert.equal(accountError("signin", 429, "a sign-in from this address is under way: wait for it"),
      "Not now: a sign-in from this address is under way: wait for it.");
    const when = (t: number) => `T${t}`;
    assert.equal(sessionLine({ device: "Firefox on Linux", created: 10, lastUsed: 500, current: true }, when),
      "Firefox on Linux — signed in T10, last used T500 — this browser");
    assert.equal(sessionLine({ device: "Chrome on Android", created: 10, lastUsed: 10, current: false }, when),
      "Chrome on Android — signed in T10");
    assert.equal(sessionLine({ created: 10, current: false }, when), "An unknown device — signed in T10");
    assert.match(accountError("password", 403, "x"), /current password is wrong/);
    assert.equal(accountError("signup", 400, "a name is 3 to 20 characters"), "Not accepted: a name is 3 to 20 characters.");
    assert.match(accountError("signin", 0, ""), /cannot be reached/);
  });

  test("ratings: rounded, ? while provisional", () => {
    assert.equal(ratingText({ rating: 1662.4, rd: 290, games: 1, provisional: true }), "1662?");
    assert.equal(ratingText({ rating: 1499.6, rd: 60, games: 40, provisional: false }), "1500");
    assert.equal(ratingText(undefined), "1500?", "no games yet: the start, provisional");
  });

  test("how a game between accounts ended", () => {
    assert.equal(endReason("time", "white"), "Black lost on time.");
    assert.equal(endReason("time", "black"), "White lost on time.");
    assert.match(endReason("abort", "none"), /aborted/);
    assert.equal(endReason("resign", "white"), "");
    assert.equal(endReason(null, "none"), "");
    const timed = game({ over: true, winner: "white", end: "time" });
    assert.equal(resultText(timed), "White wins on time");
    assert.match(endText(timed), /^Black lost on time\./);
    const aborted = game({ over: true, end: "abort" });
    assert.equal(resultText(aborted), "Aborted");
    assert.equal(statusText(aborted, ["white"]), "Aborted");
  });

  test("consent and fair endings in words", () => {
    assert.equal(endReason("abort", "none", "white"), "Aborted: White did not move. No result, and no rating changes.");
    assert.match(endText(game({ over: true, end: "abort", absent: "black" })), /^Aborted: Black \(bob\) did not move\./);
    assert.equal(endReason("abandon", "white", "black", { white: "alice", black: "bob" }), "Black (bob) left the game: White (alice) claimed the win.");
    assert.equal(endReason("abandon", "draw", "white"), "White left the game: Black called it a draw.");
    assert.match(gameLine("alice", { id: "a", game: "urbino", white: "alice", black: "bob", winner: "white", end: "abandon", rated: true }), /won \(the opponent left\) · rated$/);
    // the rematch offer: offered by bob to alice, alice's own, none yet, made already, after an abort
    const over = { over: true, winner: "white" as const, end: "resign" };
    const offered = game({ ...over, offers: { draw: null, takeback: null, rematch: "black" } });
    assert.deepEqual(rematchView(offered, "white"), { text: "bob offers a rematch.", buttons: [
      { kind: "rematch", act: "accept", label: "Accept" }, { kind: "rematch", act: "decline", label: "Decline" }] });
    assert.equal(rematchView(offered, "black")?.text, "Rematch offered — waiting for alice.");
    assert.deepEqual(rematchView(game({ ...over, offers: { draw: null, takeback: null, rematch: null } }), "white")?.buttons.map((b) => b.act), ["offer"]);
    assert.equal(rematchView(game({ ...over, rematch: "NEW" }), "white"), null);
    assert.equal(rematchView(game({ over: true, end: "abort" }), "white"), null);
    assert.equal(rematchView(game({ ...over, black: "ai:level=3", accounts: { white: "alice", black: "Computer-3" } }), "white"), null);
    assert.equal(rematchDeclinedText(offered, "white"), "bob declined the rematch.");
    // the claim: a countdown, then the buttons
    const running = game({ tomove: "black", ply: 3 });
    const wait = claimView(running, "white", 41200);
    assert.equal(wait?.text, "bob has left. If they are not back, you may end the game in 42 s.");
    assert.deepEqual(wait?.buttons.map((b) => [b.label, b.disabled]), [["Claim the win", true], ["Call it a draw", true]]);
    assert.deepEqual(claimView(running, "white", 0)?.buttons.map((b) => b.disabled), [false, false]);
    assert.equal(claimView(running, "white", null), null);
  });

  test("players named by their accounts", () => {
    const g = game({});
    assert.equal(whoText(g, "white", ["white"], null), "alice (you)");
    assert.equal(whoText(g, "black", ["white"], null), "bob");
    assert.equal(whoText(g, "black", [], null), "bob", "a spectator");
    assert.equal(whoText(game({ accounts: { white: null, black: null } }), "black", ["white"], null), "Friend", "a game by link as before");
    assert.equal(statusText(game({}), ["white"]), "Your turn");
    assert.equal(statusText(game({}), ["black"]), "Waiting for alice");
    assert.equal(statusText(game({}), []), "alice (white) to move");
    assert.equal(statusText(game({ accounts: { white: null, black: null } }), ["black"]), "Waiting for white");
    assert.equal(accountGame(game({})), true);
    assert.equal(accountGame(game({ accounts: { white: null, black: null } })), false);
    assert.equal(accountGame(game({ accounts: undefined })), false, "an older server");
  });

  test("abort: while not both sides have moved", () => {
    assert.equal(canAbort(game({}), ["white"]), true);
    assert.equal(canAbort(game({ moves: ["a2-a3"], ply: 1, tomove: "black" }), ["black"]), true, "only white moved");
    assert.equal(canAbort(game({ moves: ["a2-a3", "a11-a10"], ply: 2 }), ["white"]), false, "both moved");
    assert.equal(canAbort(game({}), []), false, "a spectator");
    assert.equal(canAbort(game({ accounts: null }), ["white"]), false, "not between accounts");
    assert.equal(canAbort(game({ accounts: { white: null, black: null } }), ["white"]), false, "not between accounts (as the server says it)");
    assert.equal(canAbort(game({ over: true }), ["white"]), false);
  });

  test("a profile's game lines", () => {
    const base = { id: "g", game: "urbino", white: "alice", black: "bob", rated: true };
    assert.equal(gameLine("alice", { ...base, winner: "white", end: "resign" }), "vs bob (alice played white) · won by resignation · rated");
    assert.equal(gameLine("bob", { ...base, winner: "white", end: "time", rated: false }), "vs alice (bob played black) · lost on time · casual");
    assert.equal(gameLine("Alice", { ...base, winner: "black", end: "normal" }), "vs bob (Alice played white) · lost · rated", "names ignore case");
    assert.equal(gameLine("alice", { ...base, winner: "none", end: "" }), "vs bob (alice played white) · in progress · rated");
    assert.equal(gameLine("alice", { ...base, winner: "none", end: "abort" }), "vs bob (alice played white) · aborted, no result");
    assert.equal(gameLine("alice", { ...base, winner: "draw", end: "normal" }), "vs bob (alice played white) · drawn · rated");
    assert.equal(gameLine("carol", { ...base, winner: "black", end: "resign" }), "alice – bob · black won by resignation · rated");
  });

  test("the colour a seek's taker plays", () => {
    assert.equal(takerColour("white"), "black");
    assert.equal(takerColour("black"), "white");
    assert.equal(takerColour("random"), "random");
  });

  test("the rating history: 1500, then the rating after each rated game, oldest first; its plot", () => {
    const games = [
      { id: "c", game: "urbino", white: "ann", black: "bob", winner: "white", end: "normal", rated: true, ratingAfter: 1700 },
      { id: "b", game: "urbino", white: "ann", black: "cat", winner: "black", end: "abort", rated: true },
      { id: "a", game: "urbino", white: "bob", black: "ann", winner: "white", end: "resign", rated: true, ratingAfter: 1600 },
      { id: "z", game: "toscana", white: "ann", black: "bob", winner: "white", end: "normal", rated: false },
    ];
    assert.deepEqual(ratingHistory(games, "urbino"), [1500, 1600, 1700]);
    assert.deepEqual(ratingHistory(games, "toscana"), [], "no rated game: no history");
    const pts = plotPoints([1500, 1600, 1700], 320, 160, 20);
    assert.deepEqual(pts.map((q) => q.x), [20, 160, 300], "games along");
    assert.ok(pts[0].y === 140 && pts[2].y === 20 && pts[1].y === 80, "rating up: lowest at the bottom, highest at the top");
    const flat = plotPoints([1500, 1510], 320, 160, 20);
    assert.ok(flat[0].y > flat[1].y && flat[0].y - flat[1].y < 20, "a small change stays small (at least 100 points tall)");
  });

  test("a draw by agreement, in words", () => {
    assert.equal(endReason("agreement", "draw"), "Drawn by agreement.");
    assert.match(gameLine("ann", { id: "x", game: "urbino", white: "ann", black: "bob", winner: "draw", end: "agreement", rated: true }), /drawn by agreement · rated$/);
  });
});
