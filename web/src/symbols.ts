// APP-6 / MIL-STD-2525 counters with milsymbol: friendly rectangle, hostile diamond, unknown
// quatrefoil for a KNOWN contact's type guess. Icons and echelon by unit card; drawn once per
// (symbol, size) and cached as canvases.

import { ms } from "milsymbol-src/milsymbol.js";
import ground from "milsymbol-src/lettersidc/sidc/ground.js";

// Only the letter-code ground-unit icons this client uses: the whole library with every
// symbol set is about 900 kB, this part a small fraction of it.
ms.addIcons([ground]);

/** Card id → [function id (2525C, 6 chars), HQ/echelon modifier (2 chars)]. */
const CARDS: Record<string, readonly [string, string]> = {
  komppanianpaallikko: ["UCI---", "AE"],
  komentoyksikko: ["UCI---", "AD"],
  joukkueenjohtaja: ["UCI---", "AD"],
  jaakariryhma: ["UCI---", "-B"],
  motorisoitu_jalkavakiryhma: ["UCIM--", "-B"],
  bmp2: ["UCIZ--", "-A"],
  cv9030: ["UCIZ--", "-A"],
  t72: ["UCA---", "-A"],
  panssarintorjuntaryhma: ["UCAA--", "-B"],
  kranaatinheitinryhma: ["UCFM--", "-B"],
  kranaatinheitinjaos: ["UCFM--", "-C"],
  pioneeriryhma: ["UCE---", "-B"],
  sissijaakarit: ["UCR---", "-B"],
  erikoisjaakariosasto: ["UCR---", "-C"],
  tarkka_ampujat: ["UCIS--", "-A"],
};

export type Affiliation = "F" | "H" | "U";

export function sidc(card: string | undefined, affiliation: Affiliation): string {
  const [fn, mod] = (card && CARDS[card]) || ["UCI---", "--"];
  return `S${affiliation}GP${fn}${mod}`;
}

const cache = new Map<string, HTMLCanvasElement>();

/** The counter's symbol drawn to a canvas about `size` pixels wide. */
export function symbolCanvas(code: string, size: number): HTMLCanvasElement {
  const px = Math.max(8, Math.round(size));
  const key = `${code}@${px}`;
  const hit = cache.get(key);
  if (hit) return hit;
  {
    // milsymbol's `size` is the frame's height in px; its frame is about 1.5 × wider.
    const c = new ms.Symbol(code, { size: px / 1.5, padding: 0 }).asCanvas(window.devicePixelRatio || 1);
    if (cache.size > 500) cache.clear();
    cache.set(key, c);
    return c;
  }
}
