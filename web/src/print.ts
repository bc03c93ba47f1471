// "Tulosta kartta" on the table: the seat's own print of the map at 1:10 000, the same
// drawing as `tk20 map` (the server draws it for the seat's side: a Blue seat never gets
// Red's set-up). The PDF opens in the browser's viewer; print it at 100 % ("actual size").

import "./editor.css";
import type { Seat } from "./api";
import { h } from "./dom";
import { lang } from "./i18n";

const WORDS = {
  print: ["Tulosta kartta", "Print map"],
  paper: ["Paperi", "Paper"],
  open_pdf: ["Avaa PDF", "Open PDF"],
  close: ["Sulje", "Close"],
  hint: [
    "Tulosta 100 %:n koossa (ei \"sovita sivulle\"): 1 cm = 100 m, 10 cm = 1 km.",
    "Print at 100 % (not \"fit to page\"): 1 cm = 100 m, 10 cm = 1 km.",
  ],
  pages: ["sivua", "pages"],
} as const;

function w(key: keyof typeof WORDS): string {
  return lang() === "en" ? WORDS[key][1] : WORDS[key][0];
}

async function fetchPrint(seat: Seat, params: Record<string, string>): Promise<{ url: string; pages: number }> {
  const q = new URLSearchParams({ ...params, lang: lang() });
  const res = await fetch(`/api/games/${encodeURIComponent(seat.game)}/print?${q.toString()}`, {
    headers: { Authorization: `Bearer ${seat.token}` },
  });
  if (!res.ok) throw new Error(`${res.status}`);
  return { url: URL.createObjectURL(await res.blob()), pages: Number(res.headers.get("X-Pages") ?? "1") };
}

/** The dialog: paper size, a preview of the first page (SVG) and the PDF of every page. */
export function openPrint(seat: Seat): HTMLDialogElement {
  const paper = h("select", { id: "print-paper", "aria-label": w("paper") },
    ...["A4", "A3", "A2"].map((p) => h("option", { value: p }, p)));
  const preview = h("img", { id: "print-preview", alt: w("print"), style: "max-width: 100%; max-height: 60vh; border: 1px solid #999" });
  const info = h("span", { id: "print-pages" });
  const pdf = h("button", { id: "print-pdf", type: "button", onclick: () => void fetchPrint(seat, { format: "pdf", paper: paper.value }).then(({ url }) => window.open(url, "_blank")) }, w("open_pdf"));
  const dialog = h("dialog", { id: "print-dialog", class: "print-dialog" },
    h("h2", {}, w("print")),
    h("label", {}, `${w("paper")} `, paper), " ", pdf, " ", info,
    h("p", { class: "muted" }, w("hint")),
    preview,
    h("form", { method: "dialog" }, h("button", {}, w("close"))),
  );
  const refresh = () => {
    void fetchPrint(seat, { format: "svg", paper: paper.value, page: "1" }).then(({ url, pages }) => {
      preview.src = url;
      info.textContent = `${pages} ${w("pages")}`;
      dialog.dataset.loaded = "";
    });
  };
  paper.addEventListener("change", refresh);
  dialog.addEventListener("close", () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
  refresh();
  return dialog;
}

/** The table's top-bar button. */
export function printButton(seat: Seat): HTMLButtonElement {
  return h("button", { id: "print", type: "button", title: w("print"), onclick: () => openPrint(seat) }, `🖶 ${w("print")}`);
}
