// Last-known markers (UI.md: "Last-known positions fade with age"): where the side last saw
// an enemy it no longer sees, and how many rounds ago. Read only from the side's own log
// (its copies of `contact`, `move` and `destroyed` events) and its current view, so a marker
// never shows more than the side was told. Pure functions, tested with vitest.

import type { Cell } from "./geometry";
import type { ContactView, EventView, UnitView } from "./types";

export interface LastKnown {
  /** The enemy's unit id or contact label, as the side knew it. */
  key: string;
  /** The exact cell (a SPOTTED sighting) or null. */
  cell: Cell | null;
  /** The area `[x0, y0, size]` (a KNOWN/SUSPECTED contact) or null. */
  area: [number, number, number] | null;
  card: string | null;
  level: string;
  /** The round it was last seen in, and rounds since then (0 = this round). */
  round: number;
  age: number;
}

type Pos = Omit<LastKnown, "age">;

function keyOf(unit: unknown): string | null {
  if (typeof unit === "string") return unit;
  if (unit && typeof unit === "object") {
    const c = (unit as Record<string, unknown>)["contact"];
    if (typeof c === "string") return c;
  }
  return null;
}

function cellOf(v: unknown): Cell | null {
  return Array.isArray(v) && v.length === 2 && typeof v[0] === "number" && typeof v[1] === "number"
    ? [v[0], v[1]]
    : null;
}

function areaOf(v: unknown): [number, number, number] | null {
  return Array.isArray(v) && v.length === 3 && v.every((x) => typeof x === "number")
    ? [v[0] as number, v[1] as number, v[2] as number]
    : null;
}

/** The markers for `side` from its log, for enemies not in its view now (`units`,
 * `contacts`). `round` is the current round. Oldest sightings are not dropped: the
 * renderer fades them (see `fade`). */
export function lastKnown(
  log: readonly EventView[],
  side: string,
  units: readonly UnitView[],
  contacts: readonly ContactView[],
  round: number,
): LastKnown[] {
  const seen = new Map<string, Pos>();
  const own = new Set(units.filter((u) => u.side === side).map((u) => u.id));
  let r = 1;
  for (const e of log) {
    const d = e.data;
    if (e.kind === "turn_started" && typeof d["round"] === "number") r = d["round"];
    if (e.kind === "contact") {
      if (d["side"] !== undefined && d["side"] !== side) continue;
      const key = keyOf(d["unit"]);
      if (!key || own.has(key)) continue;
      const level = String(d["level"] ?? "");
      if (level === "NONE") continue; // lost: the last position stays what it was
      const cell = cellOf(d["cell"]);
      const area = areaOf(d["area"]);
      if (!cell && !area) continue;
      const card = typeof d["card"] === "string" ? d["card"] : (seen.get(key)?.card ?? null);
      seen.set(key, { key, cell, area: cell ? null : area, card, level, round: r });
    } else if (e.kind === "move") {
      const key = keyOf(d["unit"]);
      const to = cellOf(d["to"]);
      const was = key ? seen.get(key) : undefined;
      if (key && to && !own.has(key) && was) seen.set(key, { ...was, cell: to, area: null, level: "SPOTTED", round: r });
    } else if (e.kind === "destroyed") {
      const key = keyOf(d["unit"]);
      if (key) seen.delete(key);
    }
  }
  const present = new Set<string>();
  for (const u of units) present.add(u.id);
  for (const c of contacts) {
    present.add(c.label);
    if (c.unit) present.add(c.unit);
  }
  return [...seen.values()]
    .filter((p) => !present.has(p.key))
    .map((p) => ({ ...p, age: Math.max(0, round - p.round) }));
}

/** Opacity of a marker `age` rounds old: 0.9 this round, fading to a floor of 0.2. */
export function fade(age: number): number {
  return Math.max(0.2, 0.9 - 0.2 * age);
}
