import { describe, expect, it } from "vitest";
import {
  areaRect, cellAt, cellCentre, contourSegments, fitViewport, lineCells, nearest, pan, parseCell,
  roadSegments, visibleCells, zoomAt, MAX_SCALE, MIN_SCALE,
} from "../src/geometry";

describe("viewport", () => {
  it("fits terasvalli (60x40) into a laptop screen with margins", () => {
    const vp = fitViewport(60, 40, 1280, 720);
    expect(vp.scale).toBeCloseTo((720 - 48) / 40);
    expect(vp.ox + 60 * vp.scale).toBeLessThanOrEqual(1280);
    expect(vp.oy).toBeGreaterThanOrEqual(24);
  });

  it("maps screen points to cells and back", () => {
    const vp = { scale: 10, ox: 5, oy: 7 };
    expect(cellAt(vp, 5, 7, 30, 20)).toEqual([0, 0]);
    expect(cellAt(vp, 14.9, 16.9, 30, 20)).toEqual([0, 0]);
    expect(cellAt(vp, 15, 17, 30, 20)).toEqual([1, 1]);
    expect(cellAt(vp, 4, 7, 30, 20)).toBeNull();
    expect(cellAt(vp, 5 + 300, 7, 30, 20)).toBeNull();
    for (const c of [[0, 0], [29, 19], [12, 7]] as const) {
      const [px, py] = cellCentre(vp, c);
      expect(cellAt(vp, px, py, 30, 20)).toEqual(c);
    }
  });

  it("zooms about the pointer: the map point under it stays", () => {
    const vp = { scale: 10, ox: 0, oy: 0 };
    const z = zoomAt(vp, 2, 100, 50);
    expect(z.scale).toBe(20);
    expect(cellAt(z, 100, 50, 100, 100)).toEqual(cellAt(vp, 100, 50, 100, 100));
    expect(zoomAt(vp, 1000, 0, 0).scale).toBe(MAX_SCALE);
    expect(zoomAt(vp, 0.0001, 0, 0).scale).toBe(MIN_SCALE);
  });

  it("pans and clips the visible cell range", () => {
    const vp = pan({ scale: 10, ox: 0, oy: 0 }, -55, -25);
    expect(visibleCells(vp, 100, 100, 200, 200)).toEqual({ x0: 5, y0: 2, x1: 15, y1: 12 });
    expect(visibleCells({ scale: 10, ox: 0, oy: 0 }, 1000, 1000, 30, 20)).toEqual({ x0: 0, y0: 0, x1: 29, y1: 19 });
  });
});

describe("line work", () => {
  it("puts one contour segment per contour crossed on each edge", () => {
    const segs = contourSegments([
      [0, 0],
      [0, 2],
    ]);
    // edge (1,1)-(1,2) between the 0 and 2 cells in row 1: two contours; edge under (1,0): two.
    expect(segs.filter((s) => s.x0 === 1 && s.y0 === 1 && s.x1 === 1)).toHaveLength(2);
    expect(segs.filter((s) => s.y0 === 1 && s.y1 === 1 && s.x0 === 1)).toHaveLength(2);
    expect(new Set(segs.map((s) => s.level))).toEqual(new Set([1, 2]));
    expect(contourSegments([[3, 3], [3, 3]])).toEqual([]);
  });

  it("joins road cells with centre lines, diagonals only where needed", () => {
    const roads = new Set(["0,0", "1,0", "2,1", "2,2"]);
    const segs = roadSegments((x, y) => roads.has(`${x},${y}`), 3, 3);
    expect(segs).toContainEqual({ x0: 0.5, y0: 0.5, x1: 1.5, y1: 0.5 });
    expect(segs).toContainEqual({ x0: 1.5, y0: 0.5, x1: 2.5, y1: 1.5 });
    expect(segs).toContainEqual({ x0: 2.5, y0: 1.5, x1: 2.5, y1: 2.5 });
    expect(segs).toHaveLength(3);
  });
});

describe("areas and lines", () => {
  it("draws a contact block from its top-left cell and size, clipped to the map", () => {
    expect(areaRect([3, 6, 3], 30, 20)).toEqual({ x: 3, y: 6, w: 3, h: 3 });
    expect(areaRect([25, 15, 5], 28, 18)).toEqual({ x: 25, y: 15, w: 3, h: 3 });
  });

  it("walks a line cell by cell including both ends", () => {
    expect(lineCells([0, 0], [3, 0])).toEqual([[0, 0], [1, 0], [2, 0], [3, 0]]);
    const l = lineCells([1, 1], [4, 3]);
    expect(l[0]).toEqual([1, 1]);
    expect(l[l.length - 1]).toEqual([4, 3]);
    expect(l).toHaveLength(4);
  });

  it("parses cells", () => {
    expect(parseCell(" 12, 7 ")).toEqual([12, 7]);
    expect(parseCell("12;7")).toBeNull();
  });
});

describe("nearest (where the keyboard cursor starts when picking a cell)", () => {
  it("takes the cell at the least Chebyshev distance, the first of equals", () => {
    const cells: [number, number][] = [[9, 9], [4, 7], [6, 6], [5, 3]];
    expect(nearest(cells, [5, 5])).toEqual([6, 6]);
    expect(nearest(cells, [4, 8])).toEqual([4, 7]);
    expect(nearest([[1, 1], [3, 3]], [2, 2])).toEqual([1, 1]);
    expect(nearest([[7, 2]], [0, 0])).toEqual([7, 2]);
  });
});
