// Potluck's accounts in the browser: logging in and signing up, the account's page (Your
// tables, the password, logging out, deleting), players' profiles (ratings with their history
// drawn, games, head-to-head) and the leaderboards. Plain JavaScript, no build step, nothing
// fetched from elsewhere; every change made as a logged-in player sends the session's CSRF
// token (the cookie potluck_csrf, readable by this site's pages only) as X-CSRF-Token.
"use strict";

const PotluckAccounts = (() => {
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key === "text") node.textContent = value;
      else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else node.setAttribute(key, value === true ? "" : value);
    }
    for (const child of children.flat(Infinity)) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  function csrf() {
    const found = document.cookie.split("; ").find((c) => c.startsWith("potluck_csrf="));
    return found ? decodeURIComponent(found.split("=")[1]) : "";
  }

  // A request to the API; a refusal throws an Error with the server's sentence and code.
  async function request(method, path, body) {
    const options = { method, headers: {}, credentials: "same-origin" };
    if (method !== "GET" && csrf()) options.headers["X-CSRF-Token"] = csrf();
    if (body !== undefined) {
      options.headers["Content-Type"] = "application/json";
      options.body = JSON.stringify(body);
    }
    const response = await fetch(path, options);
    let data = null;
    try { data = await response.json(); } catch (_) { data = null; }
    if (!response.ok) {
      const error = new Error((data && data.reason) || response.statusText);
      error.status = response.status;
      error.code = data && data.error;
      throw error;
    }
    return data;
  }

  let known = null;
  // The logged-in account ({account, csrf}; account null for a guest), asked once per page.
  function session(again) {
    if (!known || again) known = request("GET", "/api/session").catch(() => ({ account: null, csrf: null }));
    return known;
  }

  function say(text, kind) {
    const notice = document.getElementById("notice");
    if (!notice) return;
    notice.textContent = text;
    notice.className = `notice ${kind || ""}`;
    notice.setAttribute("role", kind === "error" ? "alert" : "status");
  }

  function profileUrl(name) { return `/players/${encodeURIComponent(name)}`; }

  // The header's link: the player's name (their account page) or "Log in".
  async function drawNav() {
    const link = document.getElementById("account-link");
    if (!link) return;
    const { account } = await session();
    link.textContent = account ? account.name : "Log in";
    link.href = "/account";
    link.title = account ? "Your account" : "Log in or sign up";
  }

  function day(iso) { return iso ? new Date(iso).toLocaleString() : ""; }
  function number(value) { return Number(value).toFixed(1); }

  // ------------------------------------------------------------------ the account page

  async function accountPage() {
    const { account } = await session();
    document.getElementById(account ? "logged-in" : "logged-out").classList.remove("hidden");
    if (!account) {
      formAction("login-form", async (form) => {
        await request("POST", "/api/session", { name: form.name.value.trim(), password: form.password.value });
        back();
      });
      formAction("signup-form", async (form) => {
        if (form.password.value !== form.again.value) throw new Error("The two passwords differ.");
        await request("POST", "/api/account", { name: form.name.value.trim(), password: form.password.value });
        back();
      });
      return;
    }
    document.getElementById("hello").textContent = `Logged in as ${account.name}`;
    document.getElementById("profile-link").href = profileUrl(account.name);
    document.getElementById("log-out").addEventListener("click", async () => {
      await request("DELETE", "/api/session").catch(() => null);
      location.href = "/";
    });
    document.getElementById("log-out-everywhere").addEventListener("click", async () => {
      try {
        const ended = await request("DELETE", "/api/account/sessions");
        location.href = `/account?ended=${ended.ended}`;
      } catch (error) { say(error.message, "error"); }
    });
    formAction("password-form", async (form) => {
      await request("POST", "/api/account/password", { current: form.current.value, new: form.new.value });
      form.reset();
      say("Your password is changed; your other devices are logged out.", "good");
    });
    formAction("delete-form", async (form) => {
      await request("POST", "/api/account/delete", { password: form.password.value });
      location.href = "/?deleted=1";
    });
    drawMyTables();
  }

  // After logging in: back to the page that sent the player here (?next=/path), else the lobby.
  function back() {
    const next = new URLSearchParams(location.search).get("next");
    location.href = next && next.startsWith("/") && !next.startsWith("//") ? next : "/";
  }

  function formAction(id, run) {
    const form = document.getElementById(id);
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const button = form.querySelector("button[type=submit]");
      button.disabled = true;
      try { await run(form); } catch (error) {
        say(error.status === 429 ? `${error.message}` : error.message, "error");
      } finally { button.disabled = false; }
    });
  }

  const STATUS = { open: "waiting for players", running: "playing", over: "finished", expired: "expired", broken: "broken", closed: "closed" };

  // Your tables: from the server, so they follow the account to any device.
  async function drawMyTables() {
    const list = document.getElementById("my-tables");
    try {
      const { tables } = await request("GET", "/api/account/tables");
      list.replaceChildren(...(tables.length ? tables.map(myTable) : [el("li", { class: "muted", text: "None yet." })]));
    } catch (error) { list.replaceChildren(el("li", { class: "muted", text: error.message })); }
  }

  function myTable(t) {
    const live = ["open", "running"].includes(t.status);
    const others = t.seats.filter((s) => s.seat !== t.seat).map((s) => s.name || (s.kept_for ? `kept for ${s.kept_for}` : "a free seat"));
    return el("li", { "data-table": t.id },
      el("strong", { text: t.title }), ` · ${t.rated ? "rated" : "unrated"} · ${STATUS[t.status] || t.status} · with ${others.join(", ")} `,
      el("span", { class: "actions inline" },
        live && t.seat !== null ? el("a", { class: "button", href: `/tables/${t.id}`, text: "Resume" }) : null,
        live && t.invited !== null ? el("button", { onclick: () => takeSeat(t), text: "Take the seat kept for you" }) : null,
        live && t.seat === null && t.invited === null ? el("a", { class: "button secondary", href: `/tables/${t.id}`, text: "Open" }) : null,
        t.status === "over" ? el("a", { href: `/tables/${t.id}/replay`, text: "replay" }) : null));
  }

  async function takeSeat(t) {
    try {
      await request("POST", `/api/tables/${t.id}/seats/${t.invited}`, {});
      location.href = `/tables/${t.id}`;
    } catch (error) { say(error.message, "error"); }
  }

  // ------------------------------------------------------------------ a player's profile

  async function playerPage() {
    const name = decodeURIComponent(location.pathname.split("/")[2] || "");
    document.getElementById("where").textContent = name;
    document.title = `${name} · Potluck`;
    let profile;
    try { profile = await request("GET", `/api/players/${encodeURIComponent(name)}`); } catch (error) {
      document.getElementById("player-name").textContent = "No such player";
      say(error.message, "error");
      return;
    }
    document.getElementById("player-name").textContent = profile.name;
    document.getElementById("since").textContent = `Playing since ${day(profile.created_at)}`;
    const ratings = document.getElementById("ratings");
    ratings.replaceChildren(...(profile.ratings.length ? profile.ratings.map(ratingCard)
      : [el("p", { class: "muted", text: "No rated game yet." })]));
    pager("games", `/api/players/${encodeURIComponent(name)}/games`, "games", gameRow, "more-games");
    pager("opponents", `/api/players/${encodeURIComponent(name)}/opponents`, "opponents", opponentRow, "more-opponents");
  }

  function ratingCard(r) {
    const first = r.history[0];
    const summary = `${r.title}: ${number(r.mu)} ± ${number(2 * r.sigma)} after ${r.games} rated game${r.games === 1 ? "" : "s"}` +
      (first ? ` (${number(25)} at the start)` : "");
    return el("div", { class: "rating-card", "data-pool": r.pool },
      el("h3", { text: r.title }),
      el("p", {}, el("strong", { class: "rating-value", text: number(r.mu) }), ` ± ${number(2 * r.sigma)} · rating on the leaderboard ${number(r.rating)} · ${r.games} game${r.games === 1 ? "" : "s"}`),
      chart(r.history, summary));
  }

  // The rating's history: its estimate after each game, with a band of ± 2 uncertainties,
  // from the start (25 ± 16.7) to now; each point links to its game's replay.
  function chart(history, summary) {
    const ns = "http://www.w3.org/2000/svg";
    const points = [{ mu: 25, sigma: 25 / 3, table: null }, ...history];
    const width = 320, height = 120, pad = 8;
    const low = Math.min(...points.map((p) => p.mu - 2 * p.sigma));
    const high = Math.max(...points.map((p) => p.mu + 2 * p.sigma));
    const x = (i) => pad + (points.length === 1 ? 0 : (i * (width - 2 * pad)) / (points.length - 1));
    const y = (v) => height - pad - ((v - low) / (high - low || 1)) * (height - 2 * pad);
    const svg = document.createElementNS(ns, "svg");
    svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
    svg.setAttribute("class", "rating-chart");
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", summary);
    const shape = (tag, attrs) => {
      const node = document.createElementNS(ns, tag);
      for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
      svg.append(node);
      return node;
    };
    const upper = points.map((p, i) => `${x(i)},${y(p.mu + 2 * p.sigma)}`);
    const lower = points.map((p, i) => `${x(i)},${y(p.mu - 2 * p.sigma)}`).reverse();
    shape("polygon", { points: [...upper, ...lower].join(" "), class: "band" });
    shape("polyline", { points: points.map((p, i) => `${x(i)},${y(p.mu)}`).join(" "), class: "line" });
    points.forEach((p, i) => {
      const dot = shape("circle", { cx: x(i), cy: y(p.mu), r: 3, class: p.abandoned ? "dot abandoned" : "dot" });
      const title = document.createElementNS(ns, "title");
      title.textContent = i === 0 ? "the start: 25" : `${number(p.mu)} after game ${i}${p.abandoned ? " (abandoned: counted as a loss)" : ""}`;
      dot.append(title);
    });
    return el("figure", { class: "chart" }, svg, el("figcaption", { class: "muted", text: summary }));
  }

  function pager(id, path, key, row, moreId) {
    const body = document.getElementById(id);
    const more = document.getElementById(moreId);
    let offset = 0;
    async function load() {
      try {
        const page = await request("GET", `${path}?offset=${offset}&limit=20`);
        if (offset === 0) body.replaceChildren();
        body.append(...page[key].map(row));
        if (!page.total) body.replaceChildren(el("tr", {}, el("td", { colspan: 6, class: "muted", text: "None yet." })));
        offset += page[key].length;
        more.classList.toggle("hidden", offset >= page.total);
      } catch (error) { say(error.message, "error"); }
    }
    more.addEventListener("click", load);
    load();
  }

  function place(n, of) { return n === null || n === undefined ? "" : `${n} of ${of}`; }

  function gameRow(g) {
    const others = g.seats.filter((s) => s.seat !== g.seat).map((s) =>
      s.account ? el("a", { href: profileUrl(s.name), text: s.name }) : (s.name || "a free seat"));
    const joined = others.flatMap((node, i) => (i ? [", ", node] : [node]));
    const rating = g.rating ? `${number(g.rating.before)} → ${number(g.rating.after)}${g.rating.abandoned ? " (abandoned)" : ""}` : (g.rated ? "rated" : "unrated");
    return el("tr", { "data-table": g.table },
      el("td", { text: day(g.finished_at) }),
      el("td", { text: g.title }),
      el("td", { text: place(g.place, g.players) }),
      el("td", {}, ...joined),
      el("td", { text: rating }),
      el("td", {}, el("a", { href: g.replay, text: "replay and analysis" })));
  }

  function opponentRow(o) {
    return el("tr", { "data-player": o.name },
      el("td", {}, el("a", { href: profileUrl(o.name), text: o.name })),
      el("td", { text: o.games }), el("td", { text: o.wins }), el("td", { text: o.losses }), el("td", { text: o.ties }));
  }

  // ------------------------------------------------------------------ leaderboards

  async function leaderboardsPage() {
    const select = document.getElementById("pool");
    const pools = await request("GET", "/api/leaderboards");
    const wanted = new URLSearchParams(location.search).get("pool");
    select.replaceChildren(...pools.map((p) => el("option", { value: p.id, selected: p.id === wanted, text: p.title })));
    let offset = 0;
    async function draw() {
      const pool = pools.find((p) => p.id === select.value);
      const bots = Object.entries(pool.rated_levels).map(([level, r]) => `${level} ${number(r.mu)}`);
      document.getElementById("pool-bots").textContent = bots.length
        ? `Rated tables may seat bots at these fixed ratings: ${bots.join(", ")}.` : "No bot level is rated for this game on this server.";
      const page = await request("GET", `/api/leaderboards/${pool.id}?offset=${offset}&limit=50`);
      const board = document.getElementById("board");
      board.replaceChildren(...(page.players.length ? page.players.map((p) => el("tr", { "data-player": p.name },
        el("td", { text: p.rank }), el("td", {}, el("a", { href: profileUrl(p.name), text: p.name })),
        el("td", { text: number(p.rating) }), el("td", { text: `${number(p.mu)} ± ${number(2 * p.sigma)}` }), el("td", { text: p.games })))
        : [el("tr", {}, el("td", { colspan: 5, class: "muted", text: "Nobody has a rating here yet." }))]));
      document.getElementById("previous").disabled = offset === 0;
      document.getElementById("next-page").disabled = offset + page.players.length >= page.total;
      history.replaceState(null, "", `/leaderboards?pool=${pool.id}`);
    }
    select.addEventListener("change", () => { offset = 0; draw(); });
    document.getElementById("previous").addEventListener("click", () => { offset = Math.max(0, offset - 50); draw(); });
    document.getElementById("next-page").addEventListener("click", () => { offset += 50; draw(); });
    draw();
  }

  // ------------------------------------------------------------------ after a game (table page)

  // What a finished table's page adds under "Your seat": the ratings the game moved, and
  // "Play again" (the rematch: the same players, seats moved on by one, a new deal).
  const ratings = {};  // table id -> the changes, once applied
  function afterGame(payload, redraw) {
    const t = payload.table;
    const nodes = [];
    if (t.rated) nodes.push(ratingChanges(t.id));
    const seated = payload.seat !== null && payload.seat !== undefined;
    if (seated && t.seats[payload.seat].kind === "human" && t.status === "over") nodes.push(rematchPanel(payload, redraw));
    return nodes;
  }

  function ratingChanges(tableId) {
    const box = el("div", { id: "rating-changes", role: "status" }, el("h2", { text: "Ratings" }));
    const fill = (changes) => box.append(changes.length
      ? el("ul", {}, changes.map((c) => el("li", { class: "rating-change" },
        el("a", { href: profileUrl(c.name), text: c.name }),
        `: ${number(c.before)} → ${number(c.after)}${c.abandoned ? " (abandoned: counted as a loss)" : ""}`)))
      : el("p", { class: "muted", text: "This game was not rated (a bot's level changed since it started)." }));
    if (ratings[tableId]) { fill(ratings[tableId]); return box; }
    const wait = el("p", { class: "muted", text: "The ratings are being updated…" });
    box.append(wait);
    (async () => {
      for (let i = 0; i < 30; i += 1) {
        const answer = await request("GET", `/api/tables/${tableId}/ratings`).catch(() => null);
        if (answer && answer.applied) {
          ratings[tableId] = answer.changes;
          wait.remove();
          fill(answer.changes);
          return;
        }
        await new Promise((done) => setTimeout(done, 1000));
      }
    })();
    return box;
  }

  const ANSWERS = { waiting: "has not answered yet", accepted: "plays again", declined: "declined (a medium bot plays instead)" };
  const YOURS = { waiting: "You have not answered yet", accepted: "You play again", declined: "You declined" };
  function rematchPanel(payload, redraw) {
    const t = payload.table;
    const offer = payload.rematch;
    const box = el("div", { id: "rematch" }, el("h2", { text: "Play again?" }));
    const go = async (path) => {
      try {
        const answer = await request("POST", `/api/tables/${t.id}/${path}`);
        if (answer.url) location.href = answer.url;
        else redraw(answer);
      } catch (error) { box.append(el("p", { class: "notice error", text: error.message })); }
    };
    if (!offer) {
      box.append(el("p", { class: "muted", text: "A new game with the same players and bots, every seat moved on by one, a new deal." }),
        el("button", { id: "play-again", onclick: () => go("rematch"), text: "Play again" }));
      return box;
    }
    box.append(el("ul", { class: "rematch-answers" }, offer.answers.map((a) =>
      el("li", { text: a.seat === payload.seat ? YOURS[a.answer] : `${a.name} ${ANSWERS[a.answer]}` }))));
    if (offer.mine === "waiting") {
      box.append(el("div", { class: "actions" },
        el("button", { id: "play-again", onclick: () => go("rematch"), text: "Play again" }),
        el("button", { id: "decline-rematch", class: "secondary", onclick: () => go("rematch/decline"), text: "No, thanks" })));
    } else if (offer.mine === "accepted") {
      box.append(el("a", { class: "button", id: "to-rematch", href: offer.url, text: "Go to the new table" }));
    }
    return box;
  }

  const pages = { account: accountPage, player: playerPage, leaderboards: leaderboardsPage };
  document.addEventListener("DOMContentLoaded", () => {
    drawNav();
    const ended = new URLSearchParams(location.search).get("ended");
    if (ended !== null) say(`Logged out everywhere (${ended} session${ended === "1" ? "" : "s"} ended).`, "good");
    const start = pages[document.body.dataset.page];
    if (start) start().catch((error) => say(error.message, "error"));
  });

  return { el, csrf, request, session, say, profileUrl, chart, afterGame };
})();
