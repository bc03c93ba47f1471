import { describe, expect, it } from "vitest";
import { commonPrefix, complete, familyAt, families, ordersForCell, ordersForTarget, parseOrder, reachCells } from "../src/orders";

const LEGAL = [
  "defend 1R1",
  "move 1R1 3,4",
  "move 1R1 3,5",
  "withdraw 1R1 3,5",
  "recon 1R1 6,6",
  "attack 1R1 R3 from 3,5",
  "attack 1R1 R3",
  "fire 1R1 R3",
  "move 1R2 9,9",
  "transfer pl2",
  "done",
];
const parsed = LEGAL.map(parseOrder);

describe("parseOrder", () => {
  it("splits kind, unit, cells and refs", () => {
    const o = parseOrder("attack 1R1 R3 from 3,5 with rk62");
    expect(o.kind).toBe("attack");
    expect(o.unit).toBe("1R1");
    expect(o.cells).toEqual([[3, 5]]);
    expect(o.refs).toEqual(["1R1", "R3", "rk62"]);
    expect(parseOrder("transfer pl2").unit).toBeNull();
    expect(parseOrder("done").unit).toBeNull();
  });
});

describe("click → order", () => {
  it("reach is the unit's move cells", () => {
    expect(reachCells(parsed, "1R1")).toEqual(new Set(["3,4", "3,5"]));
    expect(reachCells(parsed, "1R2")).toEqual(new Set(["9,9"]));
    expect(reachCells(parsed, "X")).toEqual(new Set());
  });

  it("a cell click offers move first, then the other orders naming the cell", () => {
    expect(ordersForCell(parsed, "1R1", [3, 5]).map((o) => o.text)).toEqual(["move 1R1 3,5", "withdraw 1R1 3,5"]);
    expect(ordersForCell(parsed, "1R1", [6, 6]).map((o) => o.text)).toEqual(["recon 1R1 6,6"]);
    expect(ordersForCell(parsed, "1R1", [0, 0])).toEqual([]);
    expect(ordersForCell(parsed, "1R2", [3, 5])).toEqual([]);
  });

  it("a target click offers fire, then attack in place, then attack after a move", () => {
    expect(ordersForTarget(parsed, "1R1", "R3").map((o) => o.text)).toEqual([
      "fire 1R1 R3", "attack 1R1 R3", "attack 1R1 R3 from 3,5",
    ]);
    expect(ordersForTarget(parsed, "1R2", "R3")).toEqual([]);
    // the unit's own id is not a target
    expect(ordersForTarget(parsed, "1R1", "1R1")).toEqual([]);
  });
});

describe("typed notation", () => {
  it("completes token by token from the legal list only", () => {
    expect(complete(LEGAL, "mo")).toEqual(["move 1R1 3,4", "move 1R1 3,5", "move 1R2 9,9"]);
    expect(complete(LEGAL, "MOVE 1R1 3,")).toEqual(["move 1R1 3,4", "move 1R1 3,5"]);
    expect(complete(LEGAL, "move 1R1 3,5 x")).toEqual([]);
    expect(complete(LEGAL, "att 1R1")).toEqual([]);
    expect(complete(LEGAL, "", 2)).toEqual(["defend 1R1", "move 1R1 3,4"]);
  });

  it("Tab fills in the common prefix", () => {
    expect(commonPrefix(["move 1R1 3,4", "move 1R1 3,5"])).toBe("move 1R1 3,");
    expect(commonPrefix([])).toBe("");
  });
});

describe("menus: families of orders", () => {
  const legal = [
    "tactic painopiste pl1", "tactic motti 12,4", "tactic motti 13,4", "transfer pl2",
    "organic KRH 19,3 by 1R2", "organic KRH 20,2 by 1R2", "organic KRH 19,3 by KP",
    "boost KRH", "strike k9 19,3 by 1R2 danger", "clear 1R1", "lay 1R1 3,4 at", "lay 1R1 3,5 at",
    "lay 1R1 3,4", "move 1R1 2,2", "done",
  ].map(parseOrder);

  it("groups orders that differ only in their cell, one entry per pattern, done left out", () => {
    const fs = families(legal, () => true);
    const byPattern = Object.fromEntries(fs.map((f) => [f.pattern, f]));
    expect(fs.map((f) => f.pattern)).toEqual([
      "tactic painopiste pl1", "tactic motti X,Y", "transfer pl2", "organic KRH X,Y by 1R2",
      "organic KRH X,Y by KP", "boost KRH", "strike k9 X,Y by 1R2 danger", "clear 1R1",
      "lay 1R1 X,Y at", "lay 1R1 X,Y", "move 1R1 X,Y",
    ]);
    expect(byPattern["tactic motti X,Y"]?.cells).toEqual([[12, 4], [13, 4]]);
    expect(byPattern["organic KRH X,Y by 1R2"]?.section).toBe("fire_support");
    expect(byPattern["lay 1R1 X,Y at"]?.section).toBe("mines");
    expect(byPattern["transfer pl2"]?.section).toBe("tactics");
    expect(byPattern["move 1R1 X,Y"]?.section).toBe("unit");
    expect(byPattern["boost KRH"]?.cells).toEqual([]);
  });

  it("a pick on the map gives the family's order at that cell, nothing elsewhere", () => {
    const f = families(legal, (o) => o.kind === "organic").find((x) => x.pattern === "organic KRH X,Y by 1R2");
    expect(f).toBeDefined();
    if (!f) return;
    expect(familyAt(f, [20, 2]).map((o) => o.text)).toEqual(["organic KRH 20,2 by 1R2"]);
    expect(familyAt(f, [1, 1])).toEqual([]);
  });

  it("every legal order but done is in exactly one family", () => {
    const fs = families(legal, () => true);
    const all = fs.flatMap((f) => f.orders.map((o) => o.text)).sort();
    expect(all).toEqual(legal.filter((o) => o.kind !== "done").map((o) => o.text).sort());
  });
});
