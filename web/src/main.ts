// Entry: a seat link opens that seat's table; anything else opens the lobby.

import "./style.css";
import { seatFromLocation } from "./api";
import { initLang } from "./i18n";
import { Editor } from "./editor";
import { Lobby } from "./lobby";
import { Table } from "./table";

initLang();
const root = document.getElementById("app");
if (root) {
  const seat = seatFromLocation(location);
  if (location.hash.startsWith("#editor")) void new Editor(root).start();
  else if (seat) void new Table(root, seat).start();
  else void new Lobby(root).start();
}
