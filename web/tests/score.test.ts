import { describe, expect, it } from "vitest";
import { finalScore, killsInLog, scoreboard } from "../src/score";
import type { EventView, GameView, ObjectiveView, UnitView } from "../src/types";

const unit = (id: string, side: string): UnitView => ({
  id, side, card: "x", name: { fi: id, en: id }, cell: [0, 0], strength: 10, max_strength: 10, statuses: [],
});
const obj = (id: string, vp: number, extra: Partial<ObjectiveView>): ObjectiveView => ({
  id, name: { fi: id, en: id }, cells: [[1, 1]], vp, holder_at_start: null, ...extra,
});
let seq = 0;
const ev = (kind: string, data: Record<string, unknown>): EventView => ({ seq: ++seq, kind, data });

function view(over: Partial<GameView>): GameView {
  return {
    viewer: "blue", side: "blue", seat: null, scenario: "demo", title: { fi: "", en: "" }, map: { width: 10, height: 10 },
    turn: 2, rounds: 6, turn_no: 3, phase: "command", active_side: "blue", done: [], finished: false,
    units: [], contacts: [], command_points: {}, objectives: [], log: [], ...over,
  };
}

const victory = { destroyed_enemy_vp: 1, own_loss_vp: -1 };

describe("scoreboard (R-TURN-2) from what the side knows", () => {
  it("reads objective holders from own presence and enemies seen, else the holder at the start", () => {
    const v = view({
      units: [unit("1R1", "blue")],
      objectives: [
        obj("a", 3, { own_present: true, enemy_seen: false }),
        obj("b", 2, { own_present: false, enemy_seen: true }),
        obj("c", 1, { own_present: true, enemy_seen: true }),
        obj("d", 4, { own_present: false, enemy_seen: false, holder_at_start: "red" }),
      ],
      destroyed: { own: ["1R2"] },
      log: [ev("destroyed", { unit: "R13", cell: [3, 3] }), ev("destroyed", { unit: "1R2" }), ev("destroyed", { unit: { contact: "c4" } })],
    });
    const b = scoreboard(v, victory);
    expect(b.objectives.map((o) => [o.id, o.holder, o.how])).toEqual([
      ["a", "blue", "seen"], ["b", "red", "seen"], ["c", "contested", "seen"], ["d", "red", "start"],
    ]);
    expect(b.exact).toBe(false);
    expect(b.sides.blue).toEqual({ objectives: 3, destroyed_enemy: 2, own_losses: -1, total: 4, kills: 2, lost: 1 });
    expect(b.sides.red).toEqual({ objectives: 6, destroyed_enemy: 1, own_losses: -2, total: 5, kills: 1, lost: 2 });
  });

  it("the GM's board is exact: occupied_by and both sides' losses", () => {
    const v = view({
      side: null, viewer: "gm",
      objectives: [obj("a", 3, { occupied_by: ["red"] }), obj("b", 2, { occupied_by: [], holder_at_start: "blue" }), obj("c", 1, { occupied_by: ["blue", "red"] })],
      destroyed: { blue: ["1R1"], red: [] },
    });
    const b = scoreboard(v, victory);
    expect(b.exact).toBe(true);
    expect(b.objectives.map((o) => o.holder)).toEqual(["red", "blue", "contested"]);
    expect(b.sides.blue.total).toBe(2 - 1);
    expect(b.sides.red.total).toBe(3 + 1);
  });

  it("without the scenario's VP values, kills and losses count units only", () => {
    const b = scoreboard(view({ destroyed: { own: ["1R2"] } }), null);
    expect(b.sides.blue).toMatchObject({ own_losses: 0, lost: 1 });
  });

  it("counts each enemy kill once and never own units", () => {
    const log = [ev("destroyed", { unit: "R1" }), ev("destroyed", { unit: "R1" }), ev("destroyed", { unit: "1R1" })];
    expect(killsInLog(log, "blue", new Set(["1R1"]))).toBe(1);
  });

  it("reads the final score and its breakdown from game_over", () => {
    const f = finalScore([ev("game_over", { winner: "blue", reason: "rounds", vp: { blue: 4, red: 1 }, detail: {
      objectives: { a: "blue" }, blue: { objectives: 3, destroyed_enemy: 2, own_losses: -1 }, red: { objectives: 2, destroyed_enemy: 1, own_losses: -2 } } })]);
    expect(f?.winner).toBe("blue");
    expect(f?.detail["blue"]).toEqual({ objectives: 3, destroyed_enemy: 2, own_losses: -1 });
    expect(f?.holders).toEqual({ a: "blue" });
    expect(finalScore([])).toBeNull();
  });
});
