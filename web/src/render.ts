// The map on a canvas: terrain fills with patterns (cached once per map as a bitmap), then
// per frame the visible part's vector line work (contours, roads, grid), overlays, counters
// and the edge coordinates. No DOM node per cell: a 200×200 map pans as smoothly as demo.

import {
  type Cell, type Viewport, areaRect, cellKey, contourSegments, roadSegments, visibleCells,
  type ContourSegment, type Segment,
} from "./geometry";
import { statusLetter } from "./i18n";
import { type LastKnown, fade } from "./lastknown";
import { sidc, symbolCanvas, type Affiliation } from "./symbols";
import type { ContactView, MapData, ObjectiveView, UnitView } from "./types";

/** Terrain drawing order: the first feature of a cell found here gives its fill. */
const FILL_ORDER = ["building", "water", "thicket", "swamp", "forest", "field", "open"];

export const COLOURS = {
  open: "#fbeab0",
  field: "#f2c94c",
  fieldHatch: "#b8901c",
  forest: "#f7fbf2",
  forestDot: "#9cc58a",
  thicket: "#7cc26a",
  thicketHatch: "#3d7f33",
  swampBg: "#f3f6fb",
  swampHatch: "#2a6fc9",
  water: "#5aa9e6",
  shore: "#1f5ea8",
  building: "#2b2b2b",
  roadCasing: "#6b3a12",
  road: "#e08a2e",
  contour: "#a0622d",
  grid: "rgba(0,0,0,0.12)",
  reach: "rgba(30,110,255,0.28)",
  range: "rgba(200,30,30,0.10)",
  rangeEdge: "#b71c1c",
  pick: "rgba(130,40,200,0.22)",
  pickEdge: "#6a1b9a",
  lastKnown: "#6d4c41",
  own: "#1f4fbf",
};

export interface Layers {
  reach: Set<string>;
  grid: boolean;
  objectives: boolean;
  contacts: boolean;
  /** Known minefields (key M); shown unless false. */
  mines?: boolean;
  /** Cells to pick from for an order being built (a menu's "choose a cell on the map"). */
  pick?: Set<string>;
}

/** The selected unit's weapon reach (key F): cells within `range` and beyond `min` of
 * `cell` (Chebyshev distance, R-GRID), and the targets its legal fire orders name. */
export interface Ranges {
  cell: Cell;
  range: number;
  min: number;
  targets: Cell[];
}

export interface Scene {
  units: UnitView[];
  contacts: ContactView[];
  objectives: ObjectiveView[];
  /** The viewer's side ("blue"/"red"); null for the game master. */
  side: string | null;
  selected: string | null;
  hover: Cell | null;
  /** The keyboard's map cursor (arrow keys on the focused map; Enter picks it). */
  cursor?: Cell | null;
  los: { from: Cell; to: Cell; clear: boolean } | null;
  mines: { cell: Cell; type: string | null }[];
  ranges?: Ranges | null;
  lastKnown?: LastKnown[];
}

/** Tile side (cells) of the line-work index: a frame looks only at the tiles in view. */
const TILE = 16;

/** The static layers (terrain, grid, contours, roads) drawn at one scale as tiles of
 * about 256 device pixels, kept while the zoom stays: a pan blits the tiles in view and
 * draws only the tiles it newly uncovers. Tile edges sit on whole device pixels of the
 * map (`edge`), so tiles abut exactly and a pan by whole pixels blits them pixel-exact. */
interface TileSet {
  scale: number;
  dpr: number;
  grid: boolean;
  /** Tile side in cells. */
  side: number;
  tiles: Map<number, HTMLCanvasElement>;
}

/** Tiles kept per zoom level (least recently used dropped first): about 8 MB at 256². */
const TILE_LIMIT = 128;

export class MapRenderer {
  readonly map: MapData;
  private features: string[][][];
  private base: HTMLCanvasElement;
  private basePx: number;
  private contours: ContourSegment[];
  private roads: Segment[];
  private contourTiles = new Map<number, ContourSegment[]>();
  private roadTiles = new Map<number, Segment[]>();
  private tileSet: TileSet | null = null;
  /** Static-layer tiles drawn so far (the benchmark and tests read it). */
  cacheBuilds = 0;

  constructor(map: MapData) {
    this.map = map;
    this.features = map.rows.map((row) => [...row].map((ch) => map.legend[ch] ?? ["open"]));
    this.contours = contourSegments(map.elevation);
    this.roads = roadSegments((x, y) => this.has(x, y, "road"), map.width, map.height);
    this.basePx = Math.max(4, Math.min(24, Math.floor(4096 / Math.max(map.width, map.height))));
    this.base = this.drawBase();
    index(this.contours, this.contourTiles, map.width);
    index(this.roads, this.roadTiles, map.width);
  }

  /** Forget the static layer cache (the next frame redraws it). */
  invalidate(): void {
    this.tileSet = null;
  }

  has(x: number, y: number, feature: string): boolean {
    return this.features[y]?.[x]?.includes(feature) ?? false;
  }

  fillOf(x: number, y: number): string {
    const f = this.features[y]?.[x] ?? [];
    return FILL_ORDER.find((id) => f.includes(id)) ?? "open";
  }

  private drawBase(): HTMLCanvasElement {
    const { width, height } = this.map;
    const p = this.basePx;
    const c = document.createElement("canvas");
    c.width = width * p;
    c.height = height * p;
    const g = c.getContext("2d");
    if (!g) return c;
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        drawCellFill(g, this.fillOf(x, y), x * p, y * p, p);
      }
    }
    // Shore lines: water edges next to land.
    g.strokeStyle = COLOURS.shore;
    g.lineWidth = Math.max(1, p / 8);
    g.beginPath();
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        if (this.fillOf(x, y) !== "water") continue;
        const land = (nx: number, ny: number) =>
          nx >= 0 && ny >= 0 && nx < width && ny < height && this.fillOf(nx, ny) !== "water";
        if (land(x - 1, y)) line(g, x * p, y * p, x * p, (y + 1) * p);
        if (land(x + 1, y)) line(g, (x + 1) * p, y * p, (x + 1) * p, (y + 1) * p);
        if (land(x, y - 1)) line(g, x * p, y * p, (x + 1) * p, y * p);
        if (land(x, y + 1)) line(g, x * p, (y + 1) * p, (x + 1) * p, (y + 1) * p);
      }
    }
    g.stroke();
    return c;
  }

  draw(ctx: CanvasRenderingContext2D, vp: Viewport, w: number, h: number, scene: Scene, layers: Layers): void {
    const { width, height } = this.map;
    const s = vp.scale;
    ctx.clearRect(0, 0, w, h);
    ctx.fillStyle = "#e9e4d8";
    ctx.fillRect(0, 0, w, h);
    const vis = visibleCells(vp, w, h, width, height);
    const X = (x: number) => vp.ox + x * s;
    const Y = (y: number) => vp.oy + y * s;
    if (vis.x1 >= vis.x0 && vis.y1 >= vis.y0) this.drawTiles(ctx, vp, vis, layers.grid);
    this.drawOverlays(ctx, vp, w, h, vis, scene, layers, X, Y);
  }

  /** Blit the static tiles in view, drawing the missing ones. */
  private drawTiles(
    ctx: CanvasRenderingContext2D, vp: Viewport, vis: { x0: number; y0: number; x1: number; y1: number }, grid: boolean,
  ): void {
    const s = vp.scale;
    const dpr = ctx.getTransform().a || 1;
    let set = this.tileSet;
    if (!set || set.scale !== s || set.dpr !== dpr || set.grid !== grid) {
      set = { scale: s, dpr, grid, side: Math.max(4, Math.round(256 / (s * dpr))), tiles: new Map() };
      this.tileSet = set;
    }
    const n = set.side;
    const across = Math.ceil(this.map.width / n) + 1;
    ctx.imageSmoothingEnabled = false;
    for (let ty = Math.floor(vis.y0 / n); ty <= Math.floor(vis.y1 / n); ty++) {
      for (let tx = Math.floor(vis.x0 / n); tx <= Math.floor(vis.x1 / n); tx++) {
        const key = ty * across + tx;
        let tile = set.tiles.get(key);
        if (tile) {
          set.tiles.delete(key); // most recently used last
        } else {
          tile = this.drawTile(set, tx, ty);
          if (set.tiles.size >= TILE_LIMIT) {
            const oldest = set.tiles.keys().next().value;
            if (oldest !== undefined) set.tiles.delete(oldest);
          }
        }
        set.tiles.set(key, tile);
        const x0 = this.edge(set, tx, this.map.width);
        const y0 = this.edge(set, ty, this.map.height);
        ctx.drawImage(tile, vp.ox + x0 / dpr, vp.oy + y0 / dpr, tile.width / dpr, tile.height / dpr);
      }
    }
  }

  /** Device-pixel position (from the map's corner) of tile edge `k` along an axis of
   * `cells` cells: whole pixels, so neighbouring tiles share it. */
  private edge(set: TileSet, k: number, cells: number): number {
    const c = k * set.side;
    return c >= cells ? Math.ceil(cells * set.scale * set.dpr) : Math.floor(c * set.scale * set.dpr);
  }

  private drawTile(set: TileSet, tx: number, ty: number): HTMLCanvasElement {
    const { width, height } = this.map;
    const { scale: s, dpr, grid, side: n } = set;
    const x0 = this.edge(set, tx, width);
    const y0 = this.edge(set, ty, height);
    const canvas = document.createElement("canvas");
    canvas.width = Math.max(1, this.edge(set, tx + 1, width) - x0);
    canvas.height = Math.max(1, this.edge(set, ty + 1, height) - y0);
    this.cacheBuilds++;
    const g = canvas.getContext("2d");
    if (!g) return canvas;
    // Map coordinates (CSS px from the map's corner) → tile pixels.
    g.setTransform(dpr, 0, 0, dpr, -x0, -y0);
    g.imageSmoothingEnabled = false;
    // One cell more on each side: the tile's first and last pixels may belong to them.
    const region = {
      x0: Math.max(0, tx * n - 1), y0: Math.max(0, ty * n - 1),
      x1: Math.min(width - 1, (tx + 1) * n), y1: Math.min(height - 1, (ty + 1) * n),
    };
    const p = this.basePx;
    const cw = region.x1 - region.x0 + 1;
    const chh = region.y1 - region.y0 + 1;
    g.drawImage(this.base, region.x0 * p, region.y0 * p, cw * p, chh * p, region.x0 * s, region.y0 * s, cw * s, chh * s);
    const X = (x: number) => x * s;
    const Y = (y: number) => y * s;
    const inView = (sg: Segment) =>
      Math.max(sg.x0, sg.x1) >= region.x0 - 1 && Math.min(sg.x0, sg.x1) <= region.x1 + 1 &&
      Math.max(sg.y0, sg.y1) >= region.y0 - 1 && Math.min(sg.y0, sg.y1) <= region.y1 + 1;
    // Grid (the 1 cm grid: a thin line).
    if (grid && s >= 6) {
      g.strokeStyle = COLOURS.grid;
      g.lineWidth = 1;
      g.beginPath();
      for (let x = region.x0; x <= region.x1 + 1; x++) line(g, X(x), Y(region.y0), X(x), Y(region.y1 + 1));
      for (let y = region.y0; y <= region.y1 + 1; y++) line(g, X(region.x0), Y(y), X(region.x1 + 1), Y(y));
      g.stroke();
    }
    // Contours: every contour thin, every fifth (index contour) thicker.
    const contours = inTiles(this.contourTiles, region, width);
    for (const idx of [false, true]) {
      g.strokeStyle = COLOURS.contour;
      g.lineWidth = idx ? Math.max(1.5, s / 10) : Math.max(0.75, s / 24);
      g.beginPath();
      for (const sg of contours) {
        if ((sg.level % 5 === 0) !== idx || !inView(sg)) continue;
        line(g, X(sg.x0), Y(sg.y0), X(sg.x1), Y(sg.y1));
      }
      g.stroke();
    }
    // Roads: lines (a dark casing under an orange core reads as the map's double line).
    const roads = inTiles(this.roadTiles, region, width);
    for (const [colour, lw] of [[COLOURS.roadCasing, 0.32], [COLOURS.road, 0.2]] as const) {
      g.strokeStyle = colour;
      g.lineWidth = Math.max(1, s * lw);
      g.lineCap = "round";
      g.beginPath();
      for (const sg of roads) {
        if (!inView(sg)) continue;
        line(g, X(sg.x0), Y(sg.y0), X(sg.x1), Y(sg.y1));
      }
      g.stroke();
    }
    return canvas;
  }

  private drawOverlays(
    ctx: CanvasRenderingContext2D, vp: Viewport, w: number, h: number,
    vis: { x0: number; y0: number; x1: number; y1: number }, scene: Scene, layers: Layers,
    X: (x: number) => number, Y: (y: number) => number,
  ): void {
    const { width, height } = this.map;
    const s = vp.scale;
    // Ranges (key F): the selected unit's weapon reach, a red tint with its edge, the
    // minimum range left out, and a ring on each target it may fire at now.
    if (scene.ranges) {
      const r = scene.ranges;
      const [ux, uy] = r.cell;
      const x0 = Math.max(vis.x0, ux - r.range);
      const x1 = Math.min(vis.x1, ux + r.range);
      const y0 = Math.max(vis.y0, uy - r.range);
      const y1 = Math.min(vis.y1, uy + r.range);
      ctx.fillStyle = COLOURS.range;
      for (let y = y0; y <= y1; y++) {
        for (let x = x0; x <= x1; x++) {
          if (Math.max(Math.abs(x - ux), Math.abs(y - uy)) < r.min) continue;
          ctx.fillRect(X(x), Y(y), s, s);
        }
      }
      ctx.strokeStyle = COLOURS.rangeEdge;
      ctx.lineWidth = 2;
      ctx.setLineDash([]);
      const a = Math.max(0, ux - r.range);
      const b = Math.max(0, uy - r.range);
      ctx.strokeRect(X(a), Y(b), (Math.min(width, ux + r.range + 1) - a) * s, (Math.min(height, uy + r.range + 1) - b) * s);
      if (r.min > 0) {
        ctx.setLineDash([4, 3]);
        ctx.strokeRect(X(ux - r.min + 1), Y(uy - r.min + 1), (2 * r.min - 1) * s, (2 * r.min - 1) * s);
        ctx.setLineDash([]);
      }
      for (const [tx, ty] of r.targets) {
        ctx.beginPath();
        ctx.arc(X(tx + 0.5), Y(ty + 0.5), Math.max(6, s * 0.6), 0, Math.PI * 2);
        ctx.stroke();
      }
    }
    // Cells to pick for an order being built from a menu.
    if (layers.pick && layers.pick.size > 0) {
      ctx.fillStyle = COLOURS.pick;
      ctx.strokeStyle = COLOURS.pickEdge;
      ctx.lineWidth = 1.5;
      for (const key of layers.pick) {
        const [cx, cy] = key.split(",").map(Number) as [number, number];
        if (cx < vis.x0 || cx > vis.x1 || cy < vis.y0 || cy > vis.y1) continue;
        ctx.fillRect(X(cx), Y(cy), s, s);
        ctx.strokeRect(X(cx) + 1, Y(cy) + 1, s - 2, s - 2);
      }
    }
    // Reach overlay.
    if (layers.reach.size > 0) {
      ctx.fillStyle = COLOURS.reach;
      for (const key of layers.reach) {
        const [cx, cy] = key.split(",").map(Number) as [number, number];
        if (cx < vis.x0 || cx > vis.x1 || cy < vis.y0 || cy > vis.y1) continue;
        ctx.fillRect(X(cx), Y(cy), s, s);
      }
    }
    // Objectives with their VP.
    if (layers.objectives) {
      for (const obj of scene.objectives) {
        ctx.strokeStyle = "#b0006e";
        ctx.lineWidth = Math.max(2, s / 8);
        ctx.setLineDash([s / 3, s / 5]);
        for (const [cx, cy] of obj.cells) ctx.strokeRect(X(cx) + 1, Y(cy) + 1, s - 2, s - 2);
        ctx.setLineDash([]);
        const xs = obj.cells.map((c) => c[0]);
        const ys = obj.cells.map((c) => c[1]);
        const lx = X(Math.min(...xs));
        const ly = Y(Math.min(...ys));
        label(ctx, `${obj.vp} VP`, lx + 2, ly - 2, Math.max(10, s * 0.45), "#b0006e");
      }
    }
    // Known minefields.
    if (layers.mines !== false) for (const { cell: [mx, my] } of scene.mines) {
      ctx.strokeStyle = "#c00";
      ctx.lineWidth = 2;
      ctx.beginPath();
      line(ctx, X(mx) + 2, Y(my) + 2, X(mx + 1) - 2, Y(my + 1) - 2);
      line(ctx, X(mx + 1) - 2, Y(my) + 2, X(mx) + 2, Y(my + 1) - 2);
      ctx.stroke();
    }
    // Contacts: SUSPECTED dashed 5×5 with "?", KNOWN hatched 3×3 with the type symbol.
    if (layers.contacts) {
      for (const c of scene.contacts) {
        if (!c.area) continue;
        const r = areaRect(c.area, width, height);
        const known = c.level.toUpperCase() === "KNOWN";
        const colour = c.area && known ? "#c62828" : "#c77800";
        ctx.save();
        ctx.beginPath();
        ctx.rect(X(r.x), Y(r.y), r.w * s, r.h * s);
        ctx.clip();
        if (known) {
          ctx.strokeStyle = "rgba(198,40,40,0.45)";
          ctx.lineWidth = Math.max(1, s / 12);
          ctx.beginPath();
          for (let k = -r.h; k < r.w; k += 0.5) line(ctx, X(r.x + k), Y(r.y + r.h), X(r.x + k + r.h), Y(r.y));
          ctx.stroke();
        } else {
          ctx.fillStyle = "rgba(230,140,0,0.12)";
          ctx.fillRect(X(r.x), Y(r.y), r.w * s, r.h * s);
        }
        ctx.restore();
        ctx.strokeStyle = colour;
        ctx.lineWidth = Math.max(1.5, s / 10);
        ctx.setLineDash(known ? [] : [s / 3, s / 4]);
        ctx.strokeRect(X(r.x), Y(r.y), r.w * s, r.h * s);
        ctx.setLineDash([]);
        if (known) {
          const sym = symbolCanvas(sidc(c.card ?? undefined, "U"), s * 1.1);
          drawSym(ctx, sym, X(r.x) + s * 0.1, Y(r.y) + s * 0.1, s * 1.1);
        } else {
          label(ctx, "?", X(r.x + r.w / 2) - s * 0.3, Y(r.y + r.h / 2) + s * 0.5, Math.max(12, s * 1.6), colour);
        }
        label(ctx, c.label, X(r.x + r.w) - s * 0.9, Y(r.y + r.h) - 3, Math.max(9, s * 0.4), colour);
      }
    }
    // Line of sight.
    if (scene.los) {
      const [ax, ay] = scene.los.from;
      const [bx, by] = scene.los.to;
      ctx.strokeStyle = scene.los.clear ? "#0a8a2a" : "#c00";
      ctx.lineWidth = Math.max(2, s / 8);
      ctx.setLineDash(scene.los.clear ? [] : [6, 4]);
      ctx.beginPath();
      line(ctx, X(ax + 0.5), Y(ay + 0.5), X(bx + 0.5), Y(by + 0.5));
      ctx.stroke();
      ctx.setLineDash([]);
    }
    // Last-known positions: a dashed ghost of the enemy, fading with the rounds since.
    if (layers.contacts) for (const m of scene.lastKnown ?? []) this.drawLastKnown(ctx, vp, m);
    // Counters.
    for (const u of scene.units) {
      if (u.cell[0] < vis.x0 - 1 || u.cell[0] > vis.x1 + 1 || u.cell[1] < vis.y0 - 1 || u.cell[1] > vis.y1 + 1) continue;
      this.drawCounter(ctx, vp, u, scene);
    }
    // Hover.
    if (scene.hover) {
      ctx.strokeStyle = "#000";
      ctx.lineWidth = 2;
      ctx.strokeRect(X(scene.hover[0]), Y(scene.hover[1]), s, s);
    }
    // The keyboard cursor: a thick dark-and-yellow ring that reads on every fill.
    if (scene.cursor) {
      const cx = X(scene.cursor[0]);
      const cy = Y(scene.cursor[1]);
      ctx.lineWidth = 4;
      ctx.strokeStyle = "#111";
      ctx.strokeRect(cx - 1, cy - 1, s + 2, s + 2);
      ctx.lineWidth = 2;
      ctx.strokeStyle = "#ffd400";
      ctx.strokeRect(cx - 1, cy - 1, s + 2, s + 2);
    }
    // Edge coordinates on all four edges.
    if (layers.grid) this.drawEdges(ctx, vp, w, h, vis);
  }

  private drawLastKnown(ctx: CanvasRenderingContext2D, vp: Viewport, m: LastKnown): void {
    const s = vp.scale;
    const { width, height } = this.map;
    ctx.save();
    ctx.globalAlpha = fade(m.age);
    ctx.strokeStyle = COLOURS.lastKnown;
    ctx.lineWidth = Math.max(1.5, s / 10);
    ctx.setLineDash([3, 3]);
    let lx: number;
    let ly: number;
    if (m.cell) {
      const size = Math.max(14, s * 1.1);
      const cx = vp.ox + (m.cell[0] + 0.5) * s;
      const cy = vp.oy + (m.cell[1] + 0.5) * s;
      drawSym(ctx, symbolCanvas(sidc(m.card ?? undefined, "H"), size), cx - size / 2, cy - size / 2, size);
      ctx.strokeRect(cx - size * 0.6, cy - size * 0.6, size * 1.2, size * 1.2);
      lx = cx - size * 0.6;
      ly = cy + size * 0.6 + Math.max(9, s * 0.4);
    } else if (m.area) {
      const r = areaRect(m.area, width, height);
      ctx.strokeRect(vp.ox + r.x * s, vp.oy + r.y * s, r.w * s, r.h * s);
      lx = vp.ox + r.x * s + 2;
      ly = vp.oy + (r.y + r.h) * s - 3;
    } else {
      ctx.restore();
      return;
    }
    ctx.setLineDash([]);
    label(ctx, `${m.key} ⌛${m.age}`, lx, ly, Math.max(9, s * 0.4), COLOURS.lastKnown);
    ctx.restore();
  }

  private drawCounter(ctx: CanvasRenderingContext2D, vp: Viewport, u: UnitView, scene: Scene): void {
    const s = vp.scale;
    const own = scene.side === null ? u.side === "blue" : u.side === scene.side;
    const aff: Affiliation = own ? "F" : "H";
    const size = Math.max(14, s * 1.25);
    const cx = vp.ox + (u.cell[0] + 0.5) * s;
    const cy = vp.oy + (u.cell[1] + 0.5) * s;
    const sym = symbolCanvas(sidc(u.card, aff), size);
    const acted = own && (u.moved || u.fired || (u.action !== null && u.action !== undefined));
    ctx.globalAlpha = acted ? 0.6 : 1;
    drawSym(ctx, sym, cx - size / 2, cy - size / 2, size);
    ctx.globalAlpha = 1;
    if (scene.selected === u.id) {
      ctx.strokeStyle = "#ffd400";
      ctx.lineWidth = 3;
      ctx.beginPath();
      ctx.arc(cx, cy, size * 0.72, 0, Math.PI * 2);
      ctx.stroke();
    }
    // Strength bar under the symbol.
    const bw = size;
    const frac = u.max_strength > 0 ? Math.max(0, Math.min(1, u.strength / u.max_strength)) : 0;
    const by = cy + size * 0.42;
    ctx.fillStyle = "#333";
    ctx.fillRect(cx - bw / 2, by, bw, 4);
    ctx.fillStyle = frac > 0.5 ? "#2e9e3a" : frac > 0.25 ? "#e0a400" : "#d32f2f";
    ctx.fillRect(cx - bw / 2, by, bw * frac, 4);
    // Id and status letters.
    const fs = Math.max(9, s * 0.42);
    label(ctx, u.id, cx - bw / 2, by + 5 + fs, fs, own ? COLOURS.own : "#b71c1c");
    let sx = cx + bw / 2 + 1;
    for (const st of u.statuses) {
      const letter = statusLetter(st);
      label(ctx, letter, sx, cy - size / 2 + fs, fs, "#8e0000");
      sx += ctx.measureText(letter).width + 2;
    }
  }

  private drawEdges(
    ctx: CanvasRenderingContext2D, vp: Viewport, w: number, h: number,
    vis: { x0: number; y0: number; x1: number; y1: number },
  ): void {
    const s = vp.scale;
    const step = s >= 18 ? 1 : s >= 9 ? 2 : s >= 5 ? 5 : 10;
    const fs = 10;
    ctx.font = `${fs}px system-ui, sans-serif`;
    ctx.fillStyle = "rgba(255,255,255,0.85)";
    ctx.fillRect(0, 0, w, 14);
    ctx.fillRect(0, h - 14, w, 14);
    ctx.fillRect(0, 0, 22, h);
    ctx.fillRect(w - 22, 0, 22, h);
    ctx.fillStyle = "#222";
    ctx.textAlign = "center";
    for (let x = vis.x0; x <= vis.x1; x++) {
      if (x % step !== 0) continue;
      const px = vp.ox + (x + 0.5) * s;
      ctx.fillText(String(x), px, 11);
      ctx.fillText(String(x), px, h - 3);
    }
    for (let y = vis.y0; y <= vis.y1; y++) {
      if (y % step !== 0) continue;
      const py = vp.oy + (y + 0.5) * s + 4;
      ctx.fillText(String(y), 11, py);
      ctx.fillText(String(y), w - 11, py);
    }
    ctx.textAlign = "start";
  }
}

function drawCellFill(g: CanvasRenderingContext2D, fill: string, x: number, y: number, p: number): void {
  const bg: Record<string, string> = {
    open: COLOURS.open, field: COLOURS.field, forest: COLOURS.forest, thicket: COLOURS.thicket,
    swamp: COLOURS.swampBg, water: COLOURS.water, building: COLOURS.building,
  };
  g.fillStyle = bg[fill] ?? COLOURS.open;
  g.fillRect(x, y, p, p);
  const lw = Math.max(1, p / 12);
  g.lineWidth = lw;
  if (fill === "field") {
    // Furrows: thin vertical lines.
    g.strokeStyle = COLOURS.fieldHatch;
    g.beginPath();
    for (let k = p / 4; k < p; k += p / 4) line(g, x + k, y + 1, x + k, y + p - 1);
    g.stroke();
  } else if (fill === "forest") {
    g.fillStyle = COLOURS.forestDot;
    const r = Math.max(0.8, p / 14);
    for (const [dx, dy] of [[0.25, 0.25], [0.75, 0.25], [0.5, 0.6], [0.25, 0.9], [0.75, 0.9]] as const) {
      g.beginPath();
      g.arc(x + dx * p, y + dy * p - p * 0.1, r, 0, Math.PI * 2);
      g.fill();
    }
  } else if (fill === "thicket") {
    // Dense crosshatch: darker and busier than forest.
    g.strokeStyle = COLOURS.thicketHatch;
    g.beginPath();
    for (let k = 0; k <= p; k += p / 3) {
      line(g, x + k, y, x, y + k);
      line(g, x + p - k, y + p, x + p, y + p - k);
      line(g, x + p - k, y, x + p, y + k);
      line(g, x + k, y + p, x, y + p - k);
    }
    g.stroke();
  } else if (fill === "swamp") {
    // The Finnish map sign for marsh: blue horizontal lines.
    g.strokeStyle = COLOURS.swampHatch;
    g.beginPath();
    for (let k = p / 5; k < p; k += p / 5) line(g, x + 1, y + k, x + p - 1, y + k);
    g.stroke();
  } else if (fill === "water") {
    g.strokeStyle = "rgba(255,255,255,0.35)";
    g.beginPath();
    line(g, x + p * 0.2, y + p * 0.35, x + p * 0.5, y + p * 0.35);
    line(g, x + p * 0.5, y + p * 0.7, x + p * 0.8, y + p * 0.7);
    g.stroke();
  }
}

/** Put each segment in the TILE×TILE tiles its ends touch. */
function index<T extends Segment>(segs: readonly T[], tiles: Map<number, T[]>, width: number): void {
  const across = Math.ceil((width + 1) / TILE);
  for (const sg of segs) {
    const keys = new Set<number>();
    for (const [x, y] of [[sg.x0, sg.y0], [sg.x1, sg.y1]] as const) {
      keys.add(Math.floor(y / TILE) * across + Math.floor(x / TILE));
    }
    for (const k of keys) {
      const list = tiles.get(k);
      if (list) list.push(sg);
      else tiles.set(k, [sg]);
    }
  }
}

/** The segments of the tiles overlapping a cell region (each once). */
function inTiles<T extends Segment>(
  tiles: Map<number, T[]>, r: { x0: number; y0: number; x1: number; y1: number }, width: number,
): T[] {
  const across = Math.ceil((width + 1) / TILE);
  const out = new Set<T>();
  for (let ty = Math.floor(Math.max(0, r.y0 - 1) / TILE); ty <= Math.floor((r.y1 + 2) / TILE); ty++) {
    for (let tx = Math.floor(Math.max(0, r.x0 - 1) / TILE); tx <= Math.floor((r.x1 + 2) / TILE); tx++) {
      for (const sg of tiles.get(ty * across + tx) ?? []) out.add(sg);
    }
  }
  return [...out];
}

function line(g: CanvasRenderingContext2D, x0: number, y0: number, x1: number, y1: number): void {
  g.moveTo(x0, y0);
  g.lineTo(x1, y1);
}

function label(g: CanvasRenderingContext2D, text: string, x: number, y: number, size: number, colour: string): void {
  g.font = `600 ${Math.round(size)}px system-ui, sans-serif`;
  g.lineWidth = 3;
  g.strokeStyle = "rgba(255,255,255,0.9)";
  g.strokeText(text, x, y);
  g.fillStyle = colour;
  g.fillText(text, x, y);
}

function drawSym(g: CanvasRenderingContext2D, sym: HTMLCanvasElement, x: number, y: number, size: number): void {
  const k = size / Math.max(sym.width, sym.height);
  const w = sym.width * k;
  const h = sym.height * k;
  g.imageSmoothingEnabled = true;
  g.drawImage(sym, x + (size - w) / 2, y + (size - h) / 2, w, h);
}

export { cellKey };
