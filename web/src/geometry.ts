// Map geometry: cells ↔ screen pixels, the viewport (zoom and pan), and the line work the
// renderer draws (contour segments between cells of different height, road segments between
// neighbouring road cells). Pure functions: no DOM, tested with vitest.

export type Cell = readonly [number, number];

export interface Viewport {
  /** Pixels per cell. */
  scale: number;
  /** Screen position of the map's top-left corner (cell 0,0's corner), in CSS pixels. */
  ox: number;
  oy: number;
}

export const MIN_SCALE = 4;
export const MAX_SCALE = 96;

export function clampScale(scale: number): number {
  return Math.min(MAX_SCALE, Math.max(MIN_SCALE, scale));
}

/** The viewport that fits a `width`×`height` map into a `w`×`h` screen, centred, with a
 * `margin` of pixels on every side for the edge coordinates. */
export function fitViewport(width: number, height: number, w: number, h: number, margin = 24): Viewport {
  const scale = clampScale(Math.min((w - 2 * margin) / width, (h - 2 * margin) / height));
  return {
    scale,
    ox: Math.round((w - width * scale) / 2),
    oy: Math.round((h - height * scale) / 2),
  };
}

/** The cell under screen point (px, py), or null outside a `width`×`height` map. */
export function cellAt(vp: Viewport, px: number, py: number, width: number, height: number): Cell | null {
  const x = Math.floor((px - vp.ox) / vp.scale);
  const y = Math.floor((py - vp.oy) / vp.scale);
  if (x < 0 || y < 0 || x >= width || y >= height) return null;
  return [x, y];
}

/** Screen position of a cell's centre. */
export function cellCentre(vp: Viewport, cell: Cell): [number, number] {
  return [vp.ox + (cell[0] + 0.5) * vp.scale, vp.oy + (cell[1] + 0.5) * vp.scale];
}

/** The cell of `cells` nearest to `from` (Chebyshev distance, then reading order). */
export function nearest(cells: readonly Cell[], from: Cell): Cell {
  let best = cells[0] as Cell;
  let bd = Infinity;
  for (const c of cells) {
    const d = Math.max(Math.abs(c[0] - from[0]), Math.abs(c[1] - from[1]));
    if (d < bd) {
      bd = d;
      best = c;
    }
  }
  return best;
}

/** Zoom by `factor` keeping screen point (px, py) over the same map point. */
export function zoomAt(vp: Viewport, factor: number, px: number, py: number): Viewport {
  const scale = clampScale(vp.scale * factor);
  const k = scale / vp.scale;
  return { scale, ox: px - (px - vp.ox) * k, oy: py - (py - vp.oy) * k };
}

export function pan(vp: Viewport, dx: number, dy: number): Viewport {
  return { scale: vp.scale, ox: vp.ox + dx, oy: vp.oy + dy };
}

/** The range of cells (inclusive) visible on a `w`×`h` screen, clipped to the map. */
export function visibleCells(
  vp: Viewport,
  w: number,
  h: number,
  width: number,
  height: number,
): { x0: number; y0: number; x1: number; y1: number } {
  return {
    x0: Math.max(0, Math.floor(-vp.ox / vp.scale)),
    y0: Math.max(0, Math.floor(-vp.oy / vp.scale)),
    x1: Math.min(width - 1, Math.floor((w - vp.ox) / vp.scale)),
    y1: Math.min(height - 1, Math.floor((h - vp.oy) / vp.scale)),
  };
}

/** A segment in cell units (0..width, 0..height): from (x0,y0) to (x1,y1). */
export interface Segment {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

export interface ContourSegment extends Segment {
  /** The contour's height: the higher of the two cells it separates. */
  level: number;
}

/** Contour lines: a segment on every cell edge between cells of different elevation, one per
 * contour crossed (an edge between heights 2 and 4 carries the 3 and 4 contours). */
export function contourSegments(elevation: readonly (readonly number[])[]): ContourSegment[] {
  const out: ContourSegment[] = [];
  const h = elevation.length;
  for (let y = 0; y < h; y++) {
    const row = elevation[y] ?? [];
    for (let x = 0; x < row.length; x++) {
      const e = row[x] ?? 0;
      const right = row[x + 1];
      if (right !== undefined && right !== e) {
        for (let lv = Math.min(e, right) + 1; lv <= Math.max(e, right); lv++) {
          out.push({ x0: x + 1, y0: y, x1: x + 1, y1: y + 1, level: lv });
        }
      }
      const below = elevation[y + 1]?.[x];
      if (below !== undefined && below !== e) {
        for (let lv = Math.min(e, below) + 1; lv <= Math.max(e, below); lv++) {
          out.push({ x0: x, y0: y + 1, x1: x + 1, y1: y + 1, level: lv });
        }
      }
    }
  }
  return out;
}

/** Road lines: centre-to-centre segments between road cells that touch (orthogonally, or
 * diagonally where neither orthogonal neighbour joins them), so a road is drawn as a line. */
export function roadSegments(isRoad: (x: number, y: number) => boolean, width: number, height: number): Segment[] {
  const out: Segment[] = [];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (!isRoad(x, y)) continue;
      const c = (dx: number, dy: number) => ({ x0: x + 0.5, y0: y + 0.5, x1: x + dx + 0.5, y1: y + dy + 0.5 });
      const right = x + 1 < width && isRoad(x + 1, y);
      const down = y + 1 < height && isRoad(x, y + 1);
      if (right) out.push(c(1, 0));
      if (down) out.push(c(0, 1));
      if (x + 1 < width && y + 1 < height && isRoad(x + 1, y + 1) && !right && !down) out.push(c(1, 1));
      if (x > 0 && y + 1 < height && isRoad(x - 1, y + 1) && !(x > 0 && isRoad(x - 1, y)) && !down) {
        out.push(c(-1, 1));
      }
    }
  }
  return out;
}

/** A contact's area `[x0, y0, size]` (the fixed-grid block's top-left cell and side length,
 * R-REC-5) as a rectangle clipped to the map: `{x, y, w, h}` in cells. */
export function areaRect(
  area: readonly [number, number, number],
  width: number,
  height: number,
): { x: number; y: number; w: number; h: number } {
  const [x0, y0, size] = area;
  const x1 = Math.min(width, x0 + size);
  const y1 = Math.min(height, y0 + size);
  return { x: Math.max(0, x0), y: Math.max(0, y0), w: x1 - Math.max(0, x0), h: y1 - Math.max(0, y0) };
}

/** Cells of a line from a to b (Bresenham), both ends included: the drawn LoS line. */
export function lineCells(a: Cell, b: Cell): Cell[] {
  const out: Cell[] = [];
  let [x, y] = a;
  const [x1, y1] = b;
  const dx = Math.abs(x1 - x);
  const dy = -Math.abs(y1 - y);
  const sx = x < x1 ? 1 : -1;
  const sy = y < y1 ? 1 : -1;
  let err = dx + dy;
  for (;;) {
    out.push([x, y]);
    if (x === x1 && y === y1) break;
    const e2 = 2 * err;
    if (e2 >= dy) {
      err += dy;
      x += sx;
    }
    if (e2 <= dx) {
      err += dx;
      y += sy;
    }
  }
  return out;
}

export function cellKey(c: Cell): string {
  return `${c[0]},${c[1]}`;
}

export function parseCell(text: string): Cell | null {
  const m = /^\s*(\d+)\s*,\s*(\d+)\s*$/.exec(text);
  return m ? [Number(m[1]), Number(m[2])] : null;
}
