// Order building: from the seat's legal orders (notation strings the server lists) to what a
// click or a typed prefix means. The client decides nothing: every order it offers is one of
// the server's legal orders, verbatim. Pure functions, tested with vitest.

import { type Cell, cellKey } from "./geometry";

export interface ParsedOrder {
  text: string;
  kind: string;
  unit: string | null;
  /** Every X,Y in the order, in order of appearance. */
  cells: Cell[];
  /** Every token that is not the keyword, a cell or a connective: unit/target ids, words. */
  refs: string[];
}

const CELL = /^(\d+),(\d+)$/;
const CONNECTIVES = new Set(["from", "with", "by", "danger", "at", "disable"]);
/** Kinds whose second token is a unit of the seat (the others name seats, words or nothing). */
const UNIT_KINDS = new Set([
  "move", "defend", "attack", "disengage", "withdraw", "rally", "recon", "fire", "organic",
  "boost", "clear", "rush", "search", "breach", "lay", "hide", "use",
]);

export function parseOrder(text: string): ParsedOrder {
  const tokens = text.trim().split(/\s+/);
  const kind = (tokens[0] ?? "").toLowerCase();
  const cells: Cell[] = [];
  const refs: string[] = [];
  for (const t of tokens.slice(1)) {
    const m = CELL.exec(t);
    if (m) cells.push([Number(m[1]), Number(m[2])]);
    else if (!CONNECTIVES.has(t)) refs.push(t);
  }
  const unit = UNIT_KINDS.has(kind) && tokens[1] !== undefined && !CELL.test(tokens[1]) ? tokens[1] : null;
  return { text, kind, unit, cells, refs };
}

/** The orders of the legal list that belong to `unit` (its own orders). */
export function ordersOfUnit(legal: readonly ParsedOrder[], unit: string): ParsedOrder[] {
  return legal.filter((o) => o.unit === unit);
}

/** Reach overlay: the cells a unit may move to now (its legal `move` orders), as cell keys. */
export function reachCells(legal: readonly ParsedOrder[], unit: string): Set<string> {
  const out = new Set<string>();
  for (const o of legal) {
    if (o.unit === unit && o.kind === "move" && o.cells[0]) out.add(cellKey(o.cells[0]));
  }
  return out;
}

const CELL_PRIORITY = ["move", "withdraw", "disengage", "recon", "search", "breach", "lay", "use"];

/** What a click on a cell means for the selected unit: its legal orders naming that cell,
 * the most usual first (move before withdraw before recon …). */
export function ordersForCell(legal: readonly ParsedOrder[], unit: string, cell: Cell): ParsedOrder[] {
  const key = cellKey(cell);
  const hits = legal.filter(
    (o) => o.unit === unit && o.kind !== "attack" && o.cells.length > 0 && o.cells.some((c) => cellKey(c) === key),
  );
  return hits.sort((a, b) => rank(CELL_PRIORITY, a.kind) - rank(CELL_PRIORITY, b.kind));
}

const TARGET_PRIORITY = ["fire", "attack", "confirm", "use"];

/** What a click on an enemy (unit id or contact label `target`) means for the selected unit:
 * its legal orders aimed at it — fire, then attack from where it stands, then attack after a
 * move (nearest first is left to the list's order). */
export function ordersForTarget(legal: readonly ParsedOrder[], unit: string, target: string): ParsedOrder[] {
  const hits = legal.filter((o) => o.unit === unit && o.refs.slice(1).includes(target));
  return hits.sort(
    (a, b) =>
      rank(TARGET_PRIORITY, a.kind) - rank(TARGET_PRIORITY, b.kind) ||
      a.cells.length - b.cells.length,
  );
}

function rank(order: readonly string[], kind: string): number {
  const i = order.indexOf(kind);
  return i < 0 ? order.length : i;
}

/** Completion of typed notation: the legal orders that start with what was typed (compared
 * token by token, the last token as a prefix; case-insensitive keywords), at most `limit`. */
export function complete(legal: readonly string[], typed: string, limit = 12): string[] {
  const want = typed.trimStart().split(/\s+/);
  if (want.length === 1 && want[0] === "") return legal.slice(0, limit);
  const out: string[] = [];
  for (const text of legal) {
    const have = text.split(/\s+/);
    if (have.length < want.length) continue;
    let ok = true;
    for (let i = 0; i < want.length && ok; i++) {
      const w = want[i] ?? "";
      const h = have[i] ?? "";
      const last = i === want.length - 1;
      ok = i === 0 ? (last ? h.toLowerCase().startsWith(w.toLowerCase()) : h.toLowerCase() === w.toLowerCase())
        : last ? h.startsWith(w) : h === w;
    }
    if (ok) {
      out.push(text);
      if (out.length >= limit) break;
    }
  }
  return out;
}

/** The longest common prefix of the completions: what Tab fills in. */
export function commonPrefix(items: readonly string[]): string {
  if (items.length === 0) return "";
  let p = items[0] ?? "";
  for (const s of items) {
    while (!s.startsWith(p)) p = p.slice(0, -1);
  }
  return p;
}

/** Menu sections of the orders that are not a click on the map: company tactics, fire
 * support, mines, and the rest of a unit's own orders. */
export type Section = "tactics" | "fire_support" | "mines" | "unit" | "other";

const SECTION_OF: Record<string, Section> = {
  tactic: "tactics", transfer: "tactics", restore: "tactics", confirm: "tactics",
  promote: "tactics", report: "tactics",
  organic: "fire_support", boost: "fire_support", strike: "fire_support",
  clear: "mines", rush: "mines", search: "mines", breach: "mines", lay: "mines",
};

export function sectionOf(kind: string): Section {
  return SECTION_OF[kind] ?? (UNIT_KINDS.has(kind) ? "unit" : "other");
}

/** One menu entry: the legal orders that differ only in their cell (`organic KRH X,Y by
 * 1R2`: one entry, the cells picked on the map), or a single order without a cell. */
export interface Family {
  /** The orders' text with every cell written `X,Y`. */
  pattern: string;
  kind: string;
  section: Section;
  orders: ParsedOrder[];
  /** The cells to pick from (the first cell of each order), empty for a plain order. */
  cells: Cell[];
}

export function patternOf(o: ParsedOrder): string {
  return o.text.trim().split(/\s+/).map((t) => (CELL.test(t) ? "X,Y" : t)).join(" ");
}

/** The menu families of `legal`, in the list's order: each pattern once. `keep` filters the
 * orders first (e.g. a unit's own, or the orders of no unit). */
export function families(legal: readonly ParsedOrder[], keep: (o: ParsedOrder) => boolean): Family[] {
  const out = new Map<string, Family>();
  for (const o of legal) {
    if (!keep(o) || o.kind === "done") continue;
    const pattern = patternOf(o);
    let f = out.get(pattern);
    if (!f) {
      f = { pattern, kind: o.kind, section: sectionOf(o.kind), orders: [], cells: [] };
      out.set(pattern, f);
    }
    f.orders.push(o);
    if (o.cells[0]) f.cells.push(o.cells[0]);
  }
  return [...out.values()];
}

/** The family's orders aimed at `cell` (a pick on the map). */
export function familyAt(f: Family, cell: Cell): ParsedOrder[] {
  const key = cellKey(cell);
  return f.orders.filter((o) => o.cells[0] !== undefined && cellKey(o.cells[0]) === key);
}
