// Types for the two milsymbol source modules the client imports directly (the package's
// `exports` offer only the whole library; vite.config.ts aliases `milsymbol-src`).
declare module "milsymbol-src/milsymbol.js" {
  import type { Symbol as MsSymbol, SymbolOptions } from "milsymbol";
  export const ms: {
    Symbol: new (sidc: string, options?: SymbolOptions) => MsSymbol;
    addIcons(parts: unknown[]): void;
  };
}
declare module "milsymbol-src/lettersidc/sidc/ground.js" {
  const ground: unknown;
  export default ground;
}
