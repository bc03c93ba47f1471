// The scenario editor's model and its edits (issue 14), pure functions over plain JSON so
// vitest can check them: the server's `content.editing` model (scenario tables + the map as
// rows and heights) is what the page edits and sends back for validation and saving.

export interface Txt {
  fi: string;
  en: string;
}

export interface EditorUnit {
  id: string;
  card: string;
  cell: [number, number];
  [key: string]: unknown;
}

export interface EditorMap {
  name: string;
  rows: string[];
  elevation: number[][] | null;
  legend: Record<string, string[]>;
}

export interface EditorModel {
  id: string;
  scenario: Record<string, unknown>;
  map: EditorMap;
  origin: { map_ref?: string | null; map_raw?: Record<string, unknown> | null };
}

export interface TerrainInfo {
  id: string;
  fi: string;
  en: string;
  char: string;
}

/** Characters → features: the terrain chars, the default legend, then the map's own. */
export function fullLegend(terrain: TerrainInfo[], defaults: Record<string, string[]>, map: EditorMap): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const t of terrain) out[t.char] = [t.id];
  Object.assign(out, defaults, map.legend);
  return out;
}

function sameSet(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((x) => b.includes(x));
}

const SPARE = "abcdefghijklmnopqrstuvwxyz0123456789";

/** The character for a feature set; a new map-legend entry when none exists yet. */
export function charFor(features: string[], legend: Record<string, string[]>, map: EditorMap): string {
  const hit = Object.entries(legend).find(([, f]) => sameSet(f, features));
  if (hit) return hit[0];
  const free = [...SPARE].find((c) => !(c in legend));
  if (!free) throw new Error("no free legend character");
  map.legend[free] = [...features];
  legend[free] = [...features];
  return free;
}

export function inBounds(map: EditorMap, x: number, y: number): boolean {
  return y >= 0 && y < map.rows.length && x >= 0 && x < (map.rows[0]?.length ?? 0);
}

/** The cells of a square brush of `size` (1, 3, 5…) centred on (x, y), on the map. */
export function brushCells(map: EditorMap, x: number, y: number, size: number): [number, number][] {
  const r = Math.floor(Math.max(1, size) / 2);
  const out: [number, number][] = [];
  for (let dy = -r; dy <= r; dy++) for (let dx = -r; dx <= r; dx++) if (inBounds(map, x + dx, y + dy)) out.push([x + dx, y + dy]);
  return out;
}

function setChar(map: EditorMap, x: number, y: number, ch: string): void {
  const row = map.rows[y] ?? "";
  map.rows[y] = row.slice(0, x) + ch + row.slice(x + 1);
}

export function featuresAt(map: EditorMap, legend: Record<string, string[]>, x: number, y: number): string[] {
  return legend[map.rows[y]?.[x] ?? "."] ?? ["open"];
}

/** Paint `terrain` (an id) with the brush; a road on a cell stays (as a combined feature). */
export function paint(
  map: EditorMap, legend: Record<string, string[]>, x: number, y: number, terrain: string, size = 1,
): void {
  for (const [cx, cy] of brushCells(map, x, y, size)) {
    const had = featuresAt(map, legend, cx, cy);
    const road = terrain !== "road" && had.includes("road");
    let features: string[];
    if (terrain === "road") features = roadOn(had);
    else if (!road) features = [terrain];
    else features = terrain === "open" ? ["road"] : [terrain, "road"];
    setChar(map, cx, cy, charFor(features, legend, map));
  }
}

function roadOn(had: string[]): string[] {
  if (had.includes("road")) return had;
  const base = had.filter((f) => f !== "open");
  return base.length ? [...base, "road"] : ["road"];
}

/** Take the road off a cell (its other features stay; a bare road becomes open ground). */
export function eraseRoad(map: EditorMap, legend: Record<string, string[]>, x: number, y: number): void {
  const had = featuresAt(map, legend, x, y);
  if (!had.includes("road")) return;
  const rest = had.filter((f) => f !== "road");
  setChar(map, x, y, charFor(rest.length ? rest : ["open"], legend, map));
}

/** Raise (+1) or lower (-1) the ground under the brush by one contour. */
export function raise(map: EditorMap, x: number, y: number, delta: number, size = 1): void {
  const h = map.rows.length;
  const w = map.rows[0]?.length ?? 0;
  if (!map.elevation) map.elevation = Array.from({ length: h }, () => new Array<number>(w).fill(0));
  for (const [cx, cy] of brushCells(map, x, y, size)) {
    const row = map.elevation[cy];
    if (row) row[cx] = (row[cx] ?? 0) + delta;
  }
}

// ----------------------------------------------------------------------------- units

export type ForceRef = { side: "blue" | "red"; index: number };

type Group = { id: string; units: EditorUnit[]; [key: string]: unknown };

export function groups(model: EditorModel, side: "blue" | "red"): Group[] {
  const force = (model.scenario[side] ?? {}) as Record<string, unknown>;
  const key = side === "blue" ? "seats" : "battle_groups";
  if (!Array.isArray(force[key])) force[key] = [];
  model.scenario[side] = force;
  return force[key] as Group[];
}

export function allUnits(model: EditorModel): { side: "blue" | "red"; group: string; unit: EditorUnit }[] {
  const out: { side: "blue" | "red"; group: string; unit: EditorUnit }[] = [];
  for (const side of ["blue", "red"] as const) {
    for (const g of groups(model, side)) for (const u of g.units ?? []) out.push({ side, group: g.id, unit: u });
  }
  return out;
}

/** A unit id not used yet: `B1`, `B2`… for Blue, `R1`… for Red (the GM can rename). */
export function nextUnitId(model: EditorModel, side: "blue" | "red"): string {
  const used = new Set(allUnits(model).map((u) => u.unit.id));
  const prefix = side === "blue" ? "B" : "R";
  for (let n = 1; ; n++) if (!used.has(`${prefix}${n}`)) return `${prefix}${n}`;
}

export function placeUnit(model: EditorModel, force: ForceRef, card: string, cell: [number, number]): EditorUnit {
  const g = groups(model, force.side)[force.index];
  if (!g) throw new Error(`no ${force.side} group ${force.index}`);
  if (!Array.isArray(g.units)) g.units = [];
  const unit: EditorUnit = { id: nextUnitId(model, force.side), card, cell };
  g.units.push(unit);
  return unit;
}

/** Remove every unit in `cell`; how many were removed. */
export function removeUnitsAt(model: EditorModel, cell: [number, number]): number {
  let n = 0;
  for (const side of ["blue", "red"] as const) {
    for (const g of groups(model, side)) {
      const before = g.units?.length ?? 0;
      g.units = (g.units ?? []).filter((u) => !(u.cell[0] === cell[0] && u.cell[1] === cell[1]));
      n += before - g.units.length;
    }
  }
  return n;
}

// ----------------------------------------------------------------------- objectives, mines

export interface Objective {
  id: string;
  name: Txt;
  cells: [number, number][];
  vp: number;
  [key: string]: unknown;
}

export function objectives(model: EditorModel): Objective[] {
  if (!Array.isArray(model.scenario.objectives)) model.scenario.objectives = [];
  return model.scenario.objectives as Objective[];
}

export function addObjective(model: EditorModel, name: Txt, vp: number): Objective {
  const list = objectives(model);
  const used = new Set(list.map((o) => o.id));
  let n = list.length + 1;
  while (used.has(`tavoite${n}`)) n++;
  const obj: Objective = { id: `tavoite${n}`, name, cells: [], vp };
  list.push(obj);
  return obj;
}

function toggleCell(cells: [number, number][], cell: [number, number]): [number, number][] {
  const i = cells.findIndex((c) => c[0] === cell[0] && c[1] === cell[1]);
  if (i >= 0) return cells.filter((_, j) => j !== i);
  return [...cells, cell];
}

export function toggleObjectiveCell(obj: Objective, cell: [number, number]): void {
  obj.cells = toggleCell(obj.cells, cell);
}

export function toggleFortified(model: EditorModel, cell: [number, number]): void {
  const list = (Array.isArray(model.scenario.fortifications) ? model.scenario.fortifications : []) as [number, number][];
  const next = toggleCell(list, cell);
  if (next.length) model.scenario.fortifications = next;
  else delete model.scenario.fortifications;
}

export function secrets(model: EditorModel): Record<string, unknown> {
  if (typeof model.scenario.secrets !== "object" || model.scenario.secrets === null) model.scenario.secrets = {};
  return model.scenario.secrets as Record<string, unknown>;
}

export interface Minefield {
  id: string;
  type: "AP" | "AT";
  shape?: string;
  cells?: [number, number][];
  at?: [number, number];
  [key: string]: unknown;
}

/** The cells of a minefield as the loader reads it (`at` + shape, or `cells`). */
export function minefieldCells(m: Minefield): [number, number][] {
  if (m.cells) return m.cells;
  if (!m.at) return [];
  const [x, y] = m.at;
  if ((m.shape ?? "box") === "strip") {
    const vertical = m.orientation === "vertical";
    return [0, 1, 2, 3].map((i) => (vertical ? [x, y + i] : [x + i, y]) as [number, number]);
  }
  return [[x, y], [x + 1, y], [x, y + 1], [x + 1, y + 1]];
}

export function minefields(model: EditorModel): Minefield[] {
  const s = secrets(model);
  if (!Array.isArray(s.minefields)) s.minefields = [];
  return s.minefields as Minefield[];
}

/** Click with the mine tool: a minefield covering `cell` is removed, else a 2×2 box laid
 * with `cell` as its top-left corner (R-MINE-1). */
export function toggleMinefield(model: EditorModel, cell: [number, number], type: "AP" | "AT"): void {
  const list = minefields(model);
  const i = list.findIndex((m) => minefieldCells(m).some((c) => c[0] === cell[0] && c[1] === cell[1]));
  if (i >= 0) {
    list.splice(i, 1);
    return;
  }
  const used = new Set(list.map((m) => m.id));
  let n = list.length + 1;
  while (used.has(`miinoite${n}`)) n++;
  list.push({ id: `miinoite${n}`, type, shape: "box", at: cell });
}

// ----------------------------------------------------------------------- picture import

export type Rgb = [number, number, number];

/** The default colour of each terrain on a scanned map (the print's and table's fills). */
export const IMPORT_COLOURS: Record<string, Rgb> = {
  open: [251, 234, 176],
  field: [242, 201, 76],
  forest: [238, 246, 230],
  thicket: [124, 194, 106],
  swamp: [243, 246, 251],
  water: [74, 154, 224],
  building: [43, 43, 43],
  road: [224, 138, 46],
};

/** Classify an RGBA picture (`data`, `pw` × `ph` pixels) into `w` × `h` cells: each cell's
 * pixel block is averaged and given the terrain of the nearest legend colour. */
export function classifyPicture(
  data: ArrayLike<number>, pw: number, ph: number, w: number, h: number,
  palette: Record<string, Rgb>,
): string[][] {
  const entries = Object.entries(palette);
  const out: string[][] = [];
  for (let cy = 0; cy < h; cy++) {
    const row: string[] = [];
    const y0 = Math.floor((cy * ph) / h);
    const y1 = Math.max(y0 + 1, Math.floor(((cy + 1) * ph) / h));
    for (let cx = 0; cx < w; cx++) {
      const x0 = Math.floor((cx * pw) / w);
      const x1 = Math.max(x0 + 1, Math.floor(((cx + 1) * pw) / w));
      let r = 0, g = 0, b = 0, n = 0;
      for (let y = y0; y < y1; y++) {
        for (let x = x0; x < x1; x++) {
          const i = (y * pw + x) * 4;
          r += data[i] ?? 0;
          g += data[i + 1] ?? 0;
          b += data[i + 2] ?? 0;
          n++;
        }
      }
      const avg: Rgb = [r / n, g / n, b / n];
      let best = entries[0]?.[0] ?? "open";
      let bestD = Infinity;
      for (const [id, c] of entries) {
        const d = (c[0] - avg[0]) ** 2 + (c[1] - avg[1]) ** 2 + (c[2] - avg[2]) ** 2;
        if (d < bestD) {
          bestD = d;
          best = id;
        }
      }
      row.push(best);
    }
    out.push(row);
  }
  return out;
}

/** Replace the map with classified terrain (heights cleared, units kept). */
export function importTerrain(map: EditorMap, legend: Record<string, string[]>, cells: string[][]): void {
  map.rows = cells.map(() => "");
  map.elevation = null;
  map.rows = cells.map((row) => row.map((id) => charFor(id === "road" ? ["road"] : [id], legend, map)).join(""));
}

/** Cells named in a problem's text: `cell 3,4`, `(3, 4)` or `[3, 4]`. */
export function problemCells(text: string): [number, number][] {
  const out: [number, number][] = [];
  const re = /[([]\s*(\d+)\s*,\s*(\d+)\s*[)\]]|\bcell (\d+),(\d+)/g;
  for (const m of text.matchAll(re)) out.push([Number(m[1] ?? m[3]), Number(m[2] ?? m[4])]);
  return out;
}
