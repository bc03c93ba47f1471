// The map on a canvas: terrain fills with patterns (cached once per map as a bitmap), then
// per frame the visible part's vector line work (contours, roads, grid), overlays, counters
// and the edge coordinates. No DOM node per cell: a 200×200 map pans as smoothly as demo.

import {
  type Cell, type Viewport, areaRect, cellKey, contourSegments, roadSegments, visibleCells,
  type ContourSegment, type Segment,
} from "./geometry";
import { statusLetter } from "./i18n";
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
  own: "#1f4fbf",
};

export interface Layers {
  reach: Set<string>;
  grid: boolean;
  objectives: boolean;
  contacts: boolean;
  /** Known minefields (key M); shown unless false. */
  mines?: boolean;
}

export interface Scene {
  units: UnitView[];
  contacts: ContactView[];
  objectives: ObjectiveView[];
  /** The viewer's side ("blue"/"red"); null for the game master. */
  side: string | null;
  selected: string | null;
  hover: Cell | null;
  los: { from: Cell; to: Cell; clear: boolean } | null;
  mines: { cell: Cell; type: string | null }[];
}

export class MapRenderer {
  readonly map: MapData;
  private features: string[][][];
  private base: HTMLCanvasElement;
  private basePx: number;
  private contours: ContourSegment[];
  private roads: Segment[];

  constructor(map: MapData) {
    this.map = map;
    this.features = map.rows.map((row) => [...row].map((ch) => map.legend[ch] ?? ["open"]));
    this.contours = contourSegments(map.elevation);
    this.roads = roadSegments((x, y) => this.has(x, y, "road"), map.width, map.height);
    this.basePx = Math.max(4, Math.min(24, Math.floor(4096 / Math.max(map.width, map.height))));
    this.base = this.drawBase();
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
    ctx.imageSmoothingEnabled = false;
    ctx.drawImage(this.base, vp.ox, vp.oy, width * s, height * s);
    const vis = visibleCells(vp, w, h, width, height);
    const inView = (sg: Segment) =>
      Math.max(sg.x0, sg.x1) >= vis.x0 - 1 && Math.min(sg.x0, sg.x1) <= vis.x1 + 1 &&
      Math.max(sg.y0, sg.y1) >= vis.y0 - 1 && Math.min(sg.y0, sg.y1) <= vis.y1 + 1;
    const X = (x: number) => vp.ox + x * s;
    const Y = (y: number) => vp.oy + y * s;

    // Grid (the 1 cm grid: a thin line).
    if (layers.grid && s >= 6) {
      ctx.strokeStyle = COLOURS.grid;
      ctx.lineWidth = 1;
      ctx.beginPath();
      for (let x = vis.x0; x <= vis.x1 + 1; x++) line(ctx, X(x), Y(vis.y0), X(x), Y(vis.y1 + 1));
      for (let y = vis.y0; y <= vis.y1 + 1; y++) line(ctx, X(vis.x0), Y(y), X(vis.x1 + 1), Y(y));
      ctx.stroke();
    }
    // Contours: every contour thin, every fifth (index contour) thicker.
    for (const index of [false, true]) {
      ctx.strokeStyle = COLOURS.contour;
      ctx.lineWidth = index ? Math.max(1.5, s / 10) : Math.max(0.75, s / 24);
      ctx.beginPath();
      for (const sg of this.contours) {
        if ((sg.level % 5 === 0) !== index || !inView(sg)) continue;
        line(ctx, X(sg.x0), Y(sg.y0), X(sg.x1), Y(sg.y1));
      }
      ctx.stroke();
    }
    // Roads: lines (a dark casing under an orange core reads as the map's double line).
    for (const [colour, width] of [[COLOURS.roadCasing, 0.32], [COLOURS.road, 0.2]] as const) {
      ctx.strokeStyle = colour;
      ctx.lineWidth = Math.max(1, s * width);
      ctx.lineCap = "round";
      ctx.beginPath();
      for (const sg of this.roads) {
        if (!inView(sg)) continue;
        line(ctx, X(sg.x0), Y(sg.y0), X(sg.x1), Y(sg.y1));
      }
      ctx.stroke();
    }
    // Reach overlay.
    if (layers.reach.size > 0) {
      ctx.fillStyle = COLOURS.reach;
      for (const key of layers.reach) {
        const [cx, cy] = key.split(",").map(Number) as [number, number];
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
    // Counters.
    for (const u of scene.units) this.drawCounter(ctx, vp, u, scene);
    // Hover.
    if (scene.hover) {
      ctx.strokeStyle = "#000";
      ctx.lineWidth = 2;
      ctx.strokeRect(X(scene.hover[0]), Y(scene.hover[1]), s, s);
    }
    // Edge coordinates on all four edges.
    if (layers.grid) this.drawEdges(ctx, vp, w, h, vis);
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
