// The shapes the client reads. Where the server's OpenAPI names a schema, these are aliases
// of the generated types (src/api-types.ts, `npm run gen-types`); the map is this client's
// own endpoint's shape.

import type { components } from "./api-types";

export interface Text {
  fi: string;
  en: string;
}

export interface Weapon {
  id: string;
  bonus: number;
  damage: string;
  range: number;
  min_range?: number | null;
  indirect?: boolean | null;
  damage_type?: string | null;
}

export interface UnitView {
  id: string;
  side: string;
  card: string;
  name: Text;
  cell: [number, number];
  strength: number;
  max_strength: number;
  statuses: string[];
  armoured?: boolean | null;
  protection?: number | null;
  cover?: number | null;
  seat?: string | null;
  action?: string | null;
  moved?: boolean | null;
  fired?: boolean | null;
  reconned?: boolean | null;
  movement?: number | null;
  weapon?: Weapon | null;
  commanded?: boolean | null;
}

export interface ContactView {
  label: string;
  level: string;
  unit?: string | null;
  cell?: [number, number] | null;
  area?: [number, number, number] | null;
  card?: string | null;
}

export interface ObjectiveView {
  id: string;
  name: Text;
  cells: [number, number][];
  vp: number;
  holder_at_start?: string | null;
  own_present?: boolean | null;
  enemy_seen?: boolean | null;
  occupied_by?: string[] | null;
}

export interface EventView {
  seq: number;
  kind: string;
  data: Record<string, unknown>;
}

export interface GameView {
  viewer: string;
  side: string | null;
  seat: string | null;
  scenario: string;
  title: Text;
  map: { width: number; height: number };
  turn: number;
  rounds: number;
  turn_no: number;
  phase: string;
  active_side: string;
  done: string[];
  finished: boolean;
  units: UnitView[];
  contacts: ContactView[] | Record<string, ContactView[]>;
  command_points: Record<string, number>;
  seat_command_points?: number | null;
  objectives: ObjectiveView[];
  log: EventView[];
  winner?: string | null;
  victory_points?: Record<string, unknown> | null;
  [key: string]: unknown;
}

/** The map as the server's /map answer gives it (generated type). */
export type MapData = components["schemas"]["MapOut"];

// The views' generated types (src/view-types.ts, from `tk20 schema`) must fit the shapes
// above: if the server's views change a field this client reads, `tsc` fails here.
import type { components as ViewComponents } from "./view-types";

type VS = ViewComponents["schemas"];
type Fits<T extends U, U> = [T, U];
export type ViewChecks = [
  Fits<VS["OwnUnitView"], UnitView>,
  Fits<VS["UnitView"], UnitView>,
  Fits<VS["ContactView"], ContactView>,
  Fits<VS["SideObjectiveView"], ObjectiveView>,
  Fits<VS["GMObjectiveView"], ObjectiveView>,
  Fits<VS["EventView"], EventView>,
  Fits<VS["SeatView"], GameView>,
  Fits<VS["SideView"], GameView>,
  Fits<VS["GMView"], GameView>,
];
