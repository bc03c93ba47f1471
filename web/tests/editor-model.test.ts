import { describe, expect, it } from "vitest";
import {
  addObjective, allUnits, brushCells, charFor, classifyPicture, eraseRoad, featuresAt, fullLegend, IMPORT_COLOURS,
  importTerrain, minefieldCells, minefields, nextUnitId, paint, placeUnit, problemCells, raise, removeUnitsAt,
  toggleFortified, toggleMinefield, toggleObjectiveCell, type EditorModel, type TerrainInfo,
} from "../src/editor-model";

const TERRAIN: TerrainInfo[] = [
  { id: "open", fi: "Avoin", en: "Open", char: "." },
  { id: "road", fi: "Tie", en: "Road", char: "=" },
  { id: "field", fi: "Pelto", en: "Field", char: "," },
  { id: "forest", fi: "Metsä", en: "Forest", char: "F" },
  { id: "water", fi: "Vesi", en: "Water", char: "W" },
  { id: "building", fi: "Rakennus", en: "Building", char: "B" },
];
const DEFAULTS = { R: ["forest", "road"], U: ["building", "road"], H: ["water", "road"] };

function model(rows = ["....", "....", "...."]): EditorModel {
  return {
    id: "t",
    scenario: { blue: { seats: [{ id: "co", units: [] }] }, red: { battle_groups: [{ id: "bg1", units: [] }] } },
    map: { name: "", rows: [...rows], elevation: null, legend: {} },
    origin: {},
  };
}

describe("terrain brush", () => {
  it("paints a square brush clipped to the map", () => {
    const m = model();
    const legend = fullLegend(TERRAIN, DEFAULTS, m.map);
    paint(m.map, legend, 0, 0, "forest", 3);
    expect(m.map.rows).toEqual(["FF..", "FF..", "...."]);
    expect(brushCells(m.map, 3, 2, 5)).toHaveLength(9);
    expect(brushCells(m.map, 3, 2, 3)).toHaveLength(4);
  });

  it("keeps a road under new terrain and uses the combined symbols", () => {
    const m = model();
    const legend = fullLegend(TERRAIN, DEFAULTS, m.map);
    paint(m.map, legend, 1, 1, "road");
    expect(m.map.rows[1]).toBe(".=..");
    paint(m.map, legend, 1, 1, "forest");
    expect(m.map.rows[1]).toBe(".R..");
    paint(m.map, legend, 1, 1, "water");
    expect(featuresAt(m.map, legend, 1, 1)).toEqual(["water", "road"]);
    eraseRoad(m.map, legend, 1, 1);
    expect(m.map.rows[1]).toBe(".W..");
  });

  it("adds a map legend entry for a combination the table lacks", () => {
    const m = model();
    const legend = fullLegend(TERRAIN, DEFAULTS, m.map);
    paint(m.map, legend, 2, 0, "field");
    paint(m.map, legend, 2, 0, "road");
    const ch = m.map.rows[0]?.[2] ?? "";
    expect(m.map.legend[ch]).toEqual(["field", "road"]);
    expect(charFor(["road", "field"], legend, m.map)).toBe(ch);
  });

  it("raises and lowers the ground", () => {
    const m = model();
    raise(m.map, 1, 1, 1, 3);
    raise(m.map, 0, 0, -1, 1);
    expect(m.map.elevation).toEqual([[0, 1, 1, 0], [1, 1, 1, 0], [1, 1, 1, 0]]);
  });
});

describe("forces and markings", () => {
  it("places units with fresh ids and removes them by cell", () => {
    const m = model();
    placeUnit(m, { side: "blue", index: 0 }, "jaakariryhma", [1, 1]);
    placeUnit(m, { side: "blue", index: 0 }, "jaakariryhma", [2, 1]);
    placeUnit(m, { side: "red", index: 0 }, "bmp2", [3, 2]);
    expect(allUnits(m).map((u) => u.unit.id)).toEqual(["B1", "B2", "R1"]);
    expect(nextUnitId(m, "red")).toBe("R2");
    expect(removeUnitsAt(m, [2, 1])).toBe(1);
    expect(nextUnitId(m, "blue")).toBe("B2");
    expect(() => placeUnit(m, { side: "red", index: 5 }, "bmp2", [0, 0])).toThrow();
  });

  it("toggles objective cells, fortified cells and minefields", () => {
    const m = model();
    const obj = addObjective(m, { fi: "Mäki", en: "Hill" }, 2);
    toggleObjectiveCell(obj, [1, 1]);
    toggleObjectiveCell(obj, [2, 1]);
    toggleObjectiveCell(obj, [1, 1]);
    expect(obj.cells).toEqual([[2, 1]]);
    toggleFortified(m, [0, 0]);
    expect(m.scenario.fortifications).toEqual([[0, 0]]);
    toggleFortified(m, [0, 0]);
    expect(m.scenario.fortifications).toBeUndefined();
    toggleMinefield(m, [1, 1], "AT");
    expect(minefieldCells(minefields(m)[0]!)).toEqual([[1, 1], [2, 1], [1, 2], [2, 2]]);
    toggleMinefield(m, [2, 2], "AP");
    expect(minefields(m)).toHaveLength(0);
    expect(minefieldCells({ id: "s", type: "AP", shape: "strip", at: [0, 0], orientation: "vertical" })).toEqual([[0, 0], [0, 1], [0, 2], [0, 3]]);
  });

  it("reads cells from a problem's text", () => {
    expect(problemCells("cell (3, 4) of unit 'B1' is impassable; also [5,6]")).toEqual([[3, 4], [5, 6]]);
    expect(problemCells("units of both sides in cell 7,6 (1R1, R1) (R-GEO-4)")).toEqual([[7, 6]]);
  });
});

describe("picture import", () => {
  it("classifies each pixel block to the nearest terrain colour", () => {
    // A 4×2 picture: water, a lighter blue, a black building and field yellow.
    const px = (c: readonly number[]) => [...c, 255];
    const water = IMPORT_COLOURS.water!;
    const field = IMPORT_COLOURS.field!;
    const dark = [30, 30, 30];
    const row0 = [...px(water), ...px(water), ...px(field), ...px(field)];
    const row1 = [...px(water), ...px([80, 160, 230]), ...px(dark), ...px(field)];
    const data = [...row0, ...row1];
    const cells = classifyPicture(data, 4, 2, 2, 1, IMPORT_COLOURS);
    // The right block averages three field pixels and a black one: nearer the road's brown.
    expect(cells).toEqual([["water", "road"]]);
    const fine = classifyPicture(data, 4, 2, 4, 2, IMPORT_COLOURS);
    expect(fine[1]).toEqual(["water", "water", "building", "field"]);
    const m = model(["..", ".."]);
    importTerrain(m.map, fullLegend(TERRAIN, DEFAULTS, m.map), fine);
    expect(m.map.rows).toEqual(["WW,,", "WWB,"]);
  });
});
