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
  indirect?: boolean;
  damage_type?: string;
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
  armoured?: boolean;
  protection?: number;
  cover?: number;
  seat?: string | null;
  action?: string | null;
  moved?: boolean;
  fired?: boolean;
  reconned?: boolean;
  movement?: number;
  weapon?: Weapon;
  commanded?: boolean;
}

export interface ContactView {
  label: string;
  level: string;
  unit?: string;
  cell?: [number, number];
  area?: [number, number, number];
  card?: string;
}

export interface ObjectiveView {
  id: string;
  name: Text;
  cells: [number, number][];
  vp: number;
  holder_at_start?: string | null;
  own_present?: boolean;
  enemy_seen?: boolean;
  occupied_by?: string[];
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
  seat_command_points?: number;
  objectives: ObjectiveView[];
  log: EventView[];
  winner?: string | null;
  victory_points?: Record<string, unknown> | null;
  [key: string]: unknown;
}

/** The map as the server's /map answer gives it (generated type). */
export type MapData = components["schemas"]["MapOut"];
