// Draws what depends on "now" from the reader's clock, at load and every
// minute: states, days left, progress, the now line, the order, the
// "ending soonest" lists and the out-of-date notices; shows times in the
// reader's zone beside the server's and turns calendar links into webcal://
// subscriptions. No request, no framework. The page as built depends on the
// data alone: without this script it lists the times with their zone.
(() => {
  "use strict";
  const ui = JSON.parse(document.getElementById("ui").textContent);
  // The style sheet keeps what only a page without script shows (the
  // timeline's tables) for screen readers and print.
  document.documentElement.classList.add("js");
  // The timeline page: `?game=<id>` shows that game alone, as `#<id>` does.
  const only = new URLSearchParams(location.search).get("game");
  if (only && document.getElementById(only)?.classList.contains("tl-game")) location.replace(`#${only}`);

  let now = Date.now();
  const DAY = 864e5;
  const STATES = ["upcoming", "ongoing", "ended"];
  const at = (el, key) => Date.parse(el.dataset[key]);
  const state = (s, e) => (now < s ? "upcoming" : now > e ? "ended" : "ongoing");
  // Whole days, rounded down: the rule of the build (model::days).
  const days = (ms, [under, one, many]) => {
    const n = Math.floor(ms / DAY);
    return n < 1 ? under : n === 1 ? one : many.replace("{n}", n);
  };
  const left = (s, e) =>
    now < s
      ? days(s - now, [ui.starts_within_day, ui.starts_in_one, ui.starts_in_many])
      : now > e
        ? ui.ended_text
        : days(e - now, [ui.left_under_day, ui.left_one, ui.left_many]);
  const mark = (el, st) => {
    el.classList.remove(...STATES);
    el.classList.add(st);
  };
  const share = (s, e) => Math.min(100, Math.max(0, ((now - s) / Math.max(1, e - s)) * 100));
  const two = (n) => String(n).padStart(2, "0");
  // `2026-11-24 12:00` of a Date, read in UTC (after shifting) or locally.
  const text = (d, utc) =>
    utc
      ? `${d.getUTCFullYear()}-${two(d.getUTCMonth() + 1)}-${two(d.getUTCDate())} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}`
      : `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}`;
  // The UTC offset in minutes a `datetime` value was written with.
  const offset = (iso) => {
    const m = /([+-])(\d\d):(\d\d)$/.exec(iso || "");
    return m ? (m[1] === "-" ? -1 : 1) * (60 * m[2] + +m[3]) : null;
  };

  let zone = null;
  const draw = () => {
    now = Date.now();
    // Everything timed: the version window, each activity, each game of the
    // home page and each entry of its "ending soonest" list.
    for (const el of document.querySelectorAll("[data-start][data-end]")) {
      const s = at(el, "start");
      const e = at(el, "end");
      if (Number.isNaN(s) || Number.isNaN(e)) continue;
      const st = state(s, e);
      el.dataset.state = st;
      mark(el, st);
      const p = share(s, e);
      for (const x of el.querySelectorAll(".st, .rem, .fill, .pct, [role=progressbar], .bar, .live")) {
        if (x.closest("[data-start][data-end]") !== el) continue;
        if (x.classList.contains("live")) {
          x.hidden = false;
          continue;
        }
        if (!x.classList.contains("rem") && !x.classList.contains("pct") && !x.classList.contains("fill")) mark(x, st);
        if (x.classList.contains("st")) {
          x.textContent = ui[st];
          x.hidden = false;
        }
        if (x.classList.contains("rem")) {
          x.textContent = left(s, e);
          x.hidden = st === "ended";
        }
        if (x.classList.contains("fill")) x.style.width = `${p.toFixed(2)}%`;
        if (x.classList.contains("pct")) x.textContent = Math.round(p);
        if (x.getAttribute("role") === "progressbar") x.setAttribute("aria-valuenow", Math.round(p));
      }
    }

    // The game page: the now line, the counts, and the order (ongoing ending
    // soonest first, then upcoming starting soonest first; ended folded away,
    // most recent first; ties in the data's order).
    // Out of date: from the moment the data is due, by the reader's clock.
    for (const note of document.querySelectorAll(".stale-note[data-due]")) {
      const due = Date.parse(note.dataset.due);
      note.hidden = Number.isNaN(due) || now < due;
    }
    for (const live of document.querySelectorAll(".legend.live")) live.hidden = false;

    const version = document.querySelector(".version[data-start]");
    if (version) {
      const s = at(version, "start");
      const e = at(version, "end");
      const inside = s <= now && now <= e;
      for (const line of document.querySelectorAll(".nowline")) {
        line.style.left = `${share(s, e).toFixed(2)}%`;
        line.hidden = !inside;
      }
      for (const key of document.querySelectorAll(".now-key")) key.hidden = !inside;
    }
    // The timeline page: the now line on the axis every game shares.
    for (const chart of document.querySelectorAll("[data-axis-start][data-axis-end]")) {
      const s = Date.parse(chart.dataset.axisStart);
      const e = Date.parse(chart.dataset.axisEnd);
      for (const line of chart.querySelectorAll(".tl-now")) {
        line.style.left = `${share(s, e).toFixed(3)}%`;
        line.hidden = !(s <= now && now <= e);
      }
    }
    const current = document.getElementById("current");
    const ended = document.getElementById("ended");
    if (current && ended) {
      const acts = [...document.querySelectorAll("li.act")];
      const key = (a) => {
        const st = a.dataset.state;
        return [st === "ongoing" ? 0 : st === "upcoming" ? 1 : 2, st === "upcoming" ? at(a, "start") : st === "ended" ? -at(a, "end") : at(a, "end"), +a.dataset.i];
      };
      const order = (a, b) => {
        const x = key(a);
        const y = key(b);
        return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
      };
      acts.sort(order);
      const done = acts.filter((a) => a.dataset.state === "ended");
      current.replaceChildren(...acts.filter((a) => a.dataset.state !== "ended"));
      ended.replaceChildren(...done);
      current.hidden = current.children.length === 0;
      ended.closest("details").hidden = done.length === 0;
      for (const st of STATES) {
        const n = acts.filter((a) => a.dataset.state === st).length;
        for (const c of document.querySelectorAll(`[data-count=${st}]`)) c.textContent = n;
      }
    }

    // The home page: per game, the three ongoing activities that end
    // soonest; above the games, the six that end soonest of all.
    const soonest = [];
    const bySoonest = (a, b) => at(a, "end") - at(b, "end") || a.dataset.i - b.dataset.i;
    for (const list of document.querySelectorAll("ul.soon")) {
      const items = [...list.children];
      const ongoing = items.filter((li) => li.dataset.state === "ongoing").sort(bySoonest);
      for (const li of items) li.hidden = true;
      ongoing.slice(0, 3).forEach((li) => {
        li.hidden = false;
        list.append(li);
      });
      list.closest(".soon-box").hidden = ongoing.length === 0;
      soonest.push(...ongoing);
    }
    const all = document.getElementById("soonest");
    if (all) {
      const top = soonest.sort((a, b) => at(a, "end") - at(b, "end")).slice(0, 6);
      all.querySelector("ol").replaceChildren(
        ...top.map((li) => {
          const item = li.cloneNode(true);
          item.removeAttribute("data-start");
          item.removeAttribute("data-end");
          item.hidden = false;
          const game = document.createElement("span");
          game.className = "game-name";
          game.textContent = li.dataset.game;
          item.prepend(game, " ");
          return item;
        }),
      );
      all.hidden = top.length === 0;
    }

    // "Status as of": the reader's now, in the server's zone.
    for (const el of document.querySelectorAll(".as-of")) el.hidden = false;
    for (const t of document.querySelectorAll("time.now")) {
      const off = offset(t.getAttribute("datetime"));
      if (off === null) continue;
      zone = off;
      const shifted = new Date(now + off * 6e4);
      t.textContent = text(shifted, true);
      const sign = off < 0 ? "-" : "+";
      const a = Math.abs(off);
      t.setAttribute("datetime", `${shifted.toISOString().slice(0, 19)}${sign}${two(Math.floor(a / 60))}:${two(a % 60)}`);
      const local = t.nextElementSibling;
      if (local && local.classList.contains("local")) local.textContent = ` (${ui.your_time} ${text(new Date(now), false)})`;
    }
  };
  draw();
  setInterval(draw, 6e4);

  // The timeline page on a narrow screen: the chart scrolled so that "now"
  // shows a third of the way into the bars, beside the game names.
  for (const line of document.querySelectorAll(".tl-now:not([hidden])")) {
    const box = line.closest(".tl");
    const names = box && box.querySelector(".tl-corner");
    if (!box || !names) continue;
    const lanes = box.clientWidth - names.offsetWidth;
    box.scrollLeft += line.getBoundingClientRect().left - box.getBoundingClientRect().left - names.offsetWidth - lanes / 3;
  }

  // Calendar subscriptions: the calendar's own address as webcal://.
  for (const a of document.querySelectorAll("a.webcal")) {
    const u = new URL(a.getAttribute("href"), location.href);
    if (u.protocol === "https:" || u.protocol === "http:") a.href = `webcal://${u.host}${u.pathname}`;
  }

  // Each time in the reader's zone too, when it differs from the server's.
  let differs = false;
  for (const t of document.querySelectorAll("time[datetime]")) {
    const iso = t.getAttribute("datetime");
    const off = offset(iso);
    const d = new Date(Date.parse(iso));
    if (off === null || Number.isNaN(d.getTime()) || -d.getTimezoneOffset() === off) continue;
    differs = true;
    // A badge stays one short line; the footer says "now" in both zones.
    if (t.closest(".badge")) continue;
    const local = document.createElement("span");
    local.className = "local";
    local.textContent = ` (${ui.your_time} ${text(d, false)})`;
    t.after(local);
  }
  const note = document.getElementById("zone");
  if (note && (differs || (zone !== null && -new Date(now).getTimezoneOffset() !== zone))) {
    const name = Intl.DateTimeFormat().resolvedOptions().timeZone || "";
    note.append(`${ui.space}${ui.your_zone}${ui.colon}${name}${ui.stop}`);
  }
})();
