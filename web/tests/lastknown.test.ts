import { describe, expect, it } from "vitest";
import { fade, lastKnown } from "../src/lastknown";
import type { ContactView, EventView, UnitView } from "../src/types";

let seq = 0;
const ev = (kind: string, data: Record<string, unknown>): EventView => ({ seq: ++seq, kind, data });
const unit = (id: string, side: string, cell: [number, number]): UnitView => ({
  id, side, card: "x", name: { fi: id, en: id }, cell, strength: 10, max_strength: 10, statuses: [],
});

describe("last-known markers", () => {
  const log: EventView[] = [
    ev("turn_started", { round: 1, side: "blue", turn_no: 1 }),
    ev("contact", { side: "blue", unit: "R11", level: "SPOTTED", cell: [20, 2], card: "komentoyksikko" }),
    ev("move", { unit: "R11", kind: "move", to: [21, 3] }),
    ev("contact", { side: "blue", unit: { contact: "c1", card: "bmp2", area: [24, 6, 3] }, level: "KNOWN", area: [24, 6, 3], card: "bmp2" }),
    ev("contact", { side: "blue", unit: "R13", level: "SPOTTED", cell: [16, 10], card: "jv" }),
    ev("move", { unit: "1R1", kind: "move", from: [1, 1], to: [2, 2] }),
    ev("turn_started", { round: 2, side: "blue", turn_no: 3 }),
    ev("contact", { side: "blue", unit: "R11", level: "NONE" }),
    ev("destroyed", { unit: "R13", cell: [16, 10], reason: "fire" }),
    ev("contact", { side: "blue", unit: { contact: "c1" }, level: "NONE" }),
    ev("turn_started", { round: 3, side: "blue", turn_no: 5 }),
  ];
  const units = [unit("1R1", "blue", [2, 2])];

  it("keeps the last cell or area of enemies the side no longer sees, with their age", () => {
    const out = lastKnown(log, "blue", units, [], 4);
    const byKey = Object.fromEntries(out.map((m) => [m.key, m]));
    expect(Object.keys(byKey).sort()).toEqual(["R11", "c1"]);
    expect(byKey["R11"]).toMatchObject({ cell: [21, 3], area: null, card: "komentoyksikko", round: 1, age: 3 });
    expect(byKey["c1"]).toMatchObject({ cell: null, area: [24, 6, 3], card: "bmp2", level: "KNOWN", round: 1, age: 3 });
  });

  it("shows no marker for what is in view now, for destroyed enemies or own units", () => {
    const visible: ContactView[] = [{ label: "c1", level: "KNOWN", area: [24, 6, 3] }];
    const out = lastKnown(log, "blue", [...units, unit("R11", "red", [21, 3])], visible, 3);
    expect(out).toEqual([]);
  });

  it("never reads another side's contact events", () => {
    const red = [ev("contact", { side: "red", unit: "1R1", level: "SPOTTED", cell: [2, 2] })];
    expect(lastKnown(red, "blue", [], [], 1)).toEqual([]);
  });

  it("fades with age to a floor", () => {
    expect(fade(0)).toBeGreaterThan(fade(1));
    expect(fade(1)).toBeGreaterThan(fade(2));
    expect(fade(10)).toBe(fade(20));
    expect(fade(10)).toBeGreaterThan(0);
  });
});
