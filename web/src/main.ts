// Entry: a seat link opens that seat's table; anything else opens the lobby.

import "./style.css";
import { seatFromLocation } from "./api";
import { CampaignPage, campaignFromLocation } from "./campaign";
import { initLang } from "./i18n";
import { Editor } from "./editor";
import { Lobby } from "./lobby";
import { Table } from "./table";

initLang();
// A pasted link that differs only in its fragment (another seat, another campaign) opens it.
window.addEventListener("hashchange", () => location.reload());
const root = document.getElementById("app");
if (root) {
  const campaign = campaignFromLocation(location);
  const seat = campaign ? null : seatFromLocation(location);
  if (campaign) void new CampaignPage(root, campaign).start();
  else if (location.hash.startsWith("#editor")) void new Editor(root).start();
  else if (seat) void new Table(root, seat).start();
  else void new Lobby(root).start();
}
