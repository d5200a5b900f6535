// Potluck in the browser: the lobby, join, table and replay pages, and the generic game screen.
// Plain JavaScript, no build step and no fetches beyond this server. Everything shown is built
// with textContent (never innerHTML; the server-sanitised rules are parsed by DOMParser), so a player's name
// cannot inject markup.
"use strict";

const Potluck = (() => {
  const renderers = {};  // game id -> function(root, payload, ctx) drawing that game's screen

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key === "class") node.className = value;
      else if (key === "text") node.textContent = value;
      else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else node.setAttribute(key, value === true ? "" : value);
    }
    for (const child of children.flat(Infinity)) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  async function api(method, path, body) {
    const options = { method, headers: {}, credentials: "same-origin" };
    if (body !== undefined) {
      options.headers["Content-Type"] = "application/json";
      options.body = JSON.stringify(body);
    }
    const response = await fetch(path, options);
    let data = null;
    try { data = await response.json(); } catch (_) { data = null; }
    if (!response.ok) {
      const reason = (data && (data.reason || data.detail)) || response.statusText;
      const error = new Error(reason);
      error.status = response.status;
      throw error;
    }
    return data;
  }

  function tableIdFromPath() { return location.pathname.split("/")[2]; }

  // A game's rules (summary and notation) into a container. The HTML is rendered from the
  // game's Markdown and sanitised by the server (markdown-it-py, then nh3): the one place
  // a page takes markup from the server, never from a player.
  const rulesCache = {};
  async function showRules(gameId, body, link) {
    if (link) { link.href = `/rules/${gameId}`; }
    if (body.dataset.game === gameId) return;
    body.dataset.game = gameId;
    try {
      rulesCache[gameId] = rulesCache[gameId] || await api("GET", `/api/games/${gameId}/rules`);
      if (body.dataset.game === gameId) {
        // Parsed inertly (no script runs in a DOMParser document), then moved in as nodes.
        const parsed = new DOMParser().parseFromString(rulesCache[gameId].html, "text/html");
        body.replaceChildren(...parsed.body.childNodes);
      }
    } catch (error) {
      body.textContent = `The rules could not be loaded: ${error.message}`;
    }
  }

  function words(key) { return String(key).replace(/_/g, " "); }

  // A readable rendering of any JSON value: the generic screen's building block.
  function value(v) {
    if (v === null || v === undefined) return el("span", { class: "muted", text: "-" });
    if (typeof v === "boolean") return document.createTextNode(v ? "yes" : "no");
    if (typeof v !== "object") return document.createTextNode(String(v));
    if (Array.isArray(v)) {
      if (v.length === 0) return el("span", { class: "muted", text: "none" });
      if (v.every((x) => x !== null && typeof x === "object" && !Array.isArray(x))) return objectTable(v);
      if (v.every((x) => x === null || typeof x !== "object")) return document.createTextNode(v.join(", "));
      return el("ol", { start: "0" }, v.map((x) => el("li", {}, value(x))));  // seats count from 0
    }
    if (v.name !== undefined && Object.keys(v).length <= 5) {
      return document.createTextNode(v.value !== undefined ? `${v.name} (${v.value})` : String(v.name));
    }
    return el("dl", { class: "kv" }, Object.entries(v).map(([k, x]) => [el("dt", { text: words(k) }), el("dd", {}, value(x))]));
  }

  function objectTable(rows) {
    const keys = [];
    for (const row of rows) for (const key of Object.keys(row)) if (!keys.includes(key)) keys.push(key);
    return el("div", { class: "scroll" }, el("table", { class: "data" },
      el("thead", {}, el("tr", {}, keys.map((k) => el("th", { text: words(k) })))),
      el("tbody", {}, rows.map((row) => el("tr", {}, keys.map((k) => el("td", {}, value(row[k]))))))));
  }

  // A seat's name, saying "(bot)" when a bot plays it (a bot's seat, or a player's seat a bot
  // took over), so that a banner never reads "Carla wins" when a bot won for her.
  function seatName(table, seat) {
    const s = table.seats[seat];
    if (!s) return `seat ${seat}`;
    const name = s.name || `seat ${seat}`;
    const bot = s.kind === "bot" || Boolean(s.taken_over);
    return bot && !/\bbot\b/i.test(name) ? `${name} (bot)` : name;
  }

  // A line of a game's log with every "seat N" read as that seat's name, "(bot)" included,
  // so that the log says which moves a bot made.
  function namedSeats(table, text) {
    return String(text).replace(/\b[Ss]eat (\d+)\b/g, (whole, number) =>
      table.seats[Number(number)] ? seatName(table, Number(number)) : whole);
  }

  // The seats: who plays where, who is a bot, who must act now.
  function seatsPanel(payload) {
    const t = payload.table;
    return el("section", { class: "panel" }, el("h2", { text: "Seats" }),
      el("div", { class: "scroll" }, el("table", { class: "data", id: "seats" },
        el("tbody", {}, t.seats.map((s) => el("tr", {},
          el("td", { text: String(s.seat) }),
          el("td", {},
            s.free ? (t.private ? el("em", { text: "free seat (by invite)" }) : el("a", { href: `/tables/${t.id}/join/${s.seat}`, text: "free seat: join" })) : (s.name || ""),
            s.seat === payload.seat ? el("span", { class: "badge", text: "you" }) : null,
            s.kind === "bot" ? el("span", { class: "badge bot", text: "bot" }) : null,
            s.taken_over ? el("span", { class: "badge away", text: `${s.played_by_bot} bot plays (${s.taken_over === "timeout" ? "timed out" : "left"})` }) : null,
            payload.to_act.includes(s.seat) && !payload.outcome ? el("span", { class: "badge turn", text: "to act" }) : null)))))),
      recentMoves(payload));
  }

  // The latest moves, each by its seat's name (which says "bot"); another seat's part of a
  // sealed choice comes without its text.
  function recentMoves(payload) {
    const moves = payload.moves || [];
    if (!moves.length) return null;
    return el("div", { id: "recent-moves" }, el("h3", { text: "Recent moves" }),
      el("ol", { class: "moves-log" }, moves.map((m) => el("li", {
        text: m.text === null ? `${seatName(payload.table, m.seat)} made a sealed choice.` : `${seatName(payload.table, m.seat)}: ${m.text}`,
      }))));
  }

  // The legal actions as buttons, and the others with their reason on hover.
  function actionsPanel(payload, ctx) {
    const box = el("section", { class: "panel", id: "actions" }, el("h2", { text: "Your move" }));
    if (payload.seat === null || payload.seat === undefined) {
      box.append(el("p", { class: "muted", text: "You are watching as a spectator." }));
      return box;
    }
    if (!payload.legal.length) {
      box.append(el("p", { class: "muted", text: payload.waiting || "Nothing to do now." }));
      return box;
    }
    box.append(el("div", { class: "actions" }, payload.legal.map((a) =>
      el("button", { "data-action": a.action, title: a.action, onclick: () => ctx.act(a.action), text: a.label }))));
    const blocked = Object.entries(payload.illegal || {});
    if (blocked.length) {
      box.append(el("details", {}, el("summary", { class: "muted", text: `Why not the other ${blocked.length} actions?` }),
        el("div", { class: "actions" }, blocked.map(([action, reason]) =>
          el("button", { class: "secondary", disabled: true, title: reason, "data-action": action, text: action })))));
    }
    return box;
  }

  // A button for one action: live when legal; otherwise disabled, with the reason on hover.
  // Games with many actions get no reasons in the payload, so the reason is asked of the
  // server the first time the pointer rests on the button (a disabled button gets no
  // pointer events, so a wrapper listens for it).
  function actionButton(payload, ctx, action, attrs, ...children) {
    const legal = payload.legal.find((a) => a.action === action);
    const button = el("button", {
      ...attrs,
      "data-action": action,
      disabled: ctx.readOnly || !legal,
      title: legal ? legal.label : (payload.illegal || {})[action] || (ctx.readOnly ? null : payload.waiting),
      onclick: legal && !ctx.readOnly ? () => ctx.act(action) : null,
    }, children.length ? children : (legal ? legal.label : action));
    if (legal || ctx.readOnly || payload.seat === null || payload.seat === undefined) return button;
    const wrap = el("span", { class: "why" }, button);
    let asked = Boolean((payload.illegal || {})[action]);
    const ask = async () => {
      if (asked) return;
      asked = true;
      try {
        const answer = await api("GET", `/api/tables/${payload.table.id}/explain?action=${encodeURIComponent(action)}`);
        if (answer.reason) { button.title = answer.reason; wrap.title = answer.reason; }
      } catch (_) { asked = false; }
    };
    wrap.addEventListener("mouseenter", ask);
    wrap.addEventListener("touchstart", ask, { passive: true });
    return wrap;
  }

  // What a button for `action` says: the server's description of the move when it is legal
  // (words, not notation), else the screen's own short words for it.
  function saying(payload, action, words) {
    const legal = payload.legal.find((a) => a.action === action);
    return legal ? legal.label : words;
  }

  // The legal actions no piece on the screen offers, as plain buttons.
  function otherActions(payload, ctx, shown) {
    const rest = payload.legal.filter((a) => !shown.has(a.action));
    if (!rest.length || ctx.readOnly) return null;
    return el("div", { class: "actions", id: "other-actions" }, rest.map((a) =>
      el("button", { "data-action": a.action, onclick: () => ctx.act(a.action), text: a.label })));
  }

  function outcomeBanner(payload) {
    if (!payload.outcome) return null;
    const o = payload.outcome;
    const names = o.winners.map((s) => seatName(payload.table, s)).join(" and ");
    return el("div", { class: "notice good", id: "outcome" },
      el("strong", { text: `Game over: ${names} ${o.winners.length > 1 ? "share the win" : "wins"}. ` }),
      o.reason, " ",
      el("a", { href: `/tables/${payload.table.id}/replay`, text: "Watch the replay" }));
  }

  // The screen any game gets: its view laid out from the JSON, plus seats and actions.
  function genericScreen(root, payload, ctx) {
    const view = payload.view || {};
    const main = el("div", {});
    const players = Array.isArray(view.players) ? view.players : null;
    if (view.you) main.append(el("section", { class: "panel", id: "you" }, el("h2", { text: "You" }), value(view.you)));
    if (players) main.append(el("section", { class: "panel", id: "players" }, el("h2", { text: "Players" }), objectTable(players)));
    const rest = Object.fromEntries(Object.entries(view).filter(([k]) => !["you", "players", "game", "seat"].includes(k)));
    main.append(el("section", { class: "panel", id: "board" }, el("h2", { text: "The game" }), value(rest)));
    root.append(el("div", { class: "grid two" },
      el("div", {}, ctx.readOnly ? null : actionsPanel(payload, ctx), main),
      el("div", {}, seatsPanel(payload))));
  }

  // A practice table's creator chose the deal: every seat's screen says so, with the seed.
  function practiceNote(table) {
    return el("p", { class: "practice", role: "note",
      text: `Practice table: its creator chose the deal (seed ${table.seed}), so anyone who knows the seed can see every hidden card.` });
  }

  function render(root, payload, ctx) {
    root.replaceChildren();
    if (payload.table.practice) root.append(practiceNote(payload.table));
    const banner = outcomeBanner(payload);
    if (banner && !ctx.readOnly) root.append(banner);
    const draw = renderers[payload.table.game] || genericScreen;
    draw(root, payload, ctx);
  }

  // ---------------------------------------------------------------- the table page

  function tablePage() {
    const id = tableIdFromPath();
    const root = document.getElementById("screen");
    const notice = document.getElementById("notice");
    const where = document.getElementById("where");
    let payload = null;
    let socket = null;
    let retry = 500;

    function say(text, kind) {
      notice.textContent = text || "";
      notice.className = text ? `notice ${kind || ""}` : "hidden";
    }

    let busy = false;  // a move is on its way: the seat's controls wait for the answer
    let host = false;  // this browser created the table (it may re-issue invites and kick)

    // From a click until the server's answer every control of the seat is disabled, so a
    // double click sends one move (and the move names its decision: a second copy that
    // got through anyway would be refused, never taken twice).
    function lock() {
      for (const control of document.querySelectorAll("#screen button, #screen input, #screen select, #screen textarea, #mine button")) {
        control.disabled = true;
      }
      root.classList.add("busy");
    }

    const ctx = {
      readOnly: false,
      async act(action) {
        if (busy || !payload) return;
        busy = true;
        lock();
        try {
          say("");
          const answer = await api("POST", `/api/tables/${id}/actions`, { action, decision: payload.decision });
          busy = false;
          draw(answer);
        } catch (error) {
          busy = false;
          say(error.message, "error");
          // The refusal may mean our screen is behind (the decision was answered, a push was
          // missed): draw the table as it is now, so the next click is on a current move.
          try { draw(await api("GET", `/api/tables/${id}`)); } catch (_) { if (payload) draw(payload); }
        }
      },
      explain(action) { return payload && payload.illegal ? payload.illegal[action] : null; },
    };

    // Whether payload `a` shows an older state of the table than `b`: by their revisions,
    // [moves stored, other changes stored], compared in that order. Every change grows
    // one of the two, and every server process counts them alike from the database.
    function older(a, b) {
      const [x, y] = [a.revision, b.revision];
      return x[0] < y[0] || (x[0] === y[0] && x[1] < y[1]);
    }

    function draw(next) {
      // The first GET, the answers to our requests and the socket's pushes race each other
      // (and may come from different server processes): a late answer must never hide the
      // newer state already shown, on any road (it could show no move to make, or a seat
      // free that was taken). The shown state is drawn again instead, so that controls
      // locked for a move whose answer lost the race come back.
      if (payload && older(next, payload)) next = payload;
      payload = next;
      root.classList.remove("busy");
      const t = payload.table;
      where.textContent = `${t.title} · table ${t.id} · ${t.status}` +
        (t.seconds_left !== undefined ? ` · ${t.seconds_left}s left to act` : "");
      render(root, payload, ctx);
      showRules(t.game, document.getElementById("rules-body"), document.getElementById("rules-link"));
      const mine = document.getElementById("mine");
      mine.replaceChildren();
      if (payload.seat !== null && payload.seat !== undefined && !payload.outcome) {
        const seat = t.seats[payload.seat];
        const link = localStorage.getItem(`potluck-seat-link-${id}`);
        if (link) mine.append(el("p", { class: "muted" }, "Your seat link (open it again to come back, on any device): ",
          el("span", { class: "link-box mono", text: location.origin + link })));
        mine.append(seat.taken_over
          ? el("button", { id: "come-back", onclick: () => seatCall("POST", `/api/tables/${id}/seats/${payload.seat}/return`), text: "Take my seat back" })
          : el("button", { class: "secondary", id: "leave", onclick: () => seatCall("DELETE", `/api/tables/${id}/seats/${payload.seat}`), text: "Leave (a bot plays for me)" }));
      }
      if (host && !payload.outcome && ["open", "running"].includes(t.status)) mine.append(hostPanel(t));
      mine.className = mine.childNodes.length ? "panel" : "hidden";
      if (busy) lock();
    }

    // The creator's controls: replace an absent player by a bot; a new invite link for a
    // private table's open seat (the old link stops working).
    function hostPanel(t) {
      const rows = t.seats.filter((s) => s.kind === "human").map((s) => el("li", { "data-seat": s.seat },
        `Seat ${s.seat}: ${s.free ? "free" : (s.name || "")} `,
        s.taken_over === "kicked" ? el("span", { class: "muted", text: "(a bot plays) " }) : null,
        s.taken_over !== "kicked" ? el("button", { class: "secondary kick", onclick: () => hostCall("kick", s.seat), text: "Give the seat to a bot" }) : null,
        t.private && (s.free || s.taken_over === "kicked") ? el("button", { class: "secondary reinvite", onclick: () => hostCall("invite", s.seat), text: "New invite link" }) : null));
      return el("div", { id: "host" }, el("h2", { text: "Your table" }),
        el("p", { class: "muted", text: "You created this table: you may give an absent player's seat to a bot" + (t.private ? " and send a seat a new invite link." : ".") }),
        el("ul", {}, rows), el("div", { id: "new-invite" }));
    }

    async function hostCall(what, seat) {
      try {
        const answer = await api("POST", `/api/tables/${id}/seats/${seat}/${what}`);
        if (what === "invite") {
          document.getElementById("new-invite").replaceChildren(el("p", {}, `Seat ${seat}'s new invite link (send it only to that player): `,
            el("span", { class: "link-box mono", text: location.origin + answer.join })));
        } else {
          draw(await api("GET", `/api/tables/${id}`));
        }
      } catch (error) { say(error.message, "error"); }
    }

    async function seatCall(method, path) {
      try { draw(await api(method, path)); } catch (error) { say(error.message, "error"); }
    }

    function connect() {
      const scheme = location.protocol === "https:" ? "wss" : "ws";
      socket = new WebSocket(`${scheme}://${location.host}/ws/tables/${id}`);
      socket.onopen = () => { retry = 500; };
      socket.onmessage = (event) => {
        const message = JSON.parse(event.data);
        if (message.type === "state") draw(message);
        else if (message.type === "error") say(message.reason, "error");
      };
      socket.onclose = () => {
        setTimeout(connect, retry);  // the server may be restarting: come back when it is up
        retry = Math.min(retry * 2, 8000);
      };
    }

    api("GET", `/api/tables/${id}`).then((first) => { host = Boolean(first.host); draw(first); },
      (error) => say(error.message, "error"));
    connect();
  }

  // ---------------------------------------------------------------- the join page

  function joinPage() {
    const parts = location.pathname.split("/");
    const id = parts[2];
    const seat = Number(parts[4]);
    const form = document.getElementById("join-form");
    const info = document.getElementById("join-info");
    const notice = document.getElementById("notice");
    let practice = false;
    api("GET", `/api/tables/${id}`).then((p) => {
      const t = p.table;
      practice = Boolean(t.practice);
      const agree = practice
        ? el("label", { class: "practice" }, el("input", { type: "checkbox", name: "practice", required: true }),
          " I agree to play a practice table: its creator chose the deal, so whoever knows the seed can see my cards.")
        : null;
      info.replaceChildren(el("p", {}, `${t.title}, ${t.num_players} players. You are joining as seat ${seat}.`),
        practice ? practiceNote(t) : null,
        t.private ? el("p", { class: "muted", text: "A private table: you sit down through the invite link its creator sent you (open that link, then give your name)." }) : null,
        el("ul", {}, t.seats.map((s) => el("li", {}, `Seat ${s.seat}: `, s.free ? el("em", { text: "free" }) : s.name))));
      if (agree) form.insertBefore(agree, form.querySelector("button"));
    }, (error) => { notice.textContent = error.message; notice.className = "notice error"; });
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const name = form.elements.name.value;
      try {
        const body = practice ? { name, practice: Boolean(form.elements.practice && form.elements.practice.checked) } : { name };
        const joined = await api("POST", `/api/tables/${id}/seats/${seat}`, body);
        localStorage.setItem(`potluck-seat-link-${id}`, joined.seat_link);
        location.href = `/tables/${id}`;
      } catch (error) { notice.textContent = error.message; notice.className = "notice error"; }
    });
  }

  // ---------------------------------------------------------------- the lobby

  function lobbyPage() {
    const form = document.getElementById("create-form");
    const created = document.getElementById("created");
    const notice = document.getElementById("notice");
    let games = [];

    function currentGame() { return games.find((g) => g.id === form.elements.game.value); }

    function drawForm() {
      const game = currentGame();
      const players = form.elements.num_players;
      const wanted = Math.min(Math.max(Number(players.value) || game.min_players, game.min_players), game.max_players);
      players.replaceChildren(...Array.from({ length: game.max_players - game.min_players + 1 }, (_, i) => {
        const n = game.min_players + i;
        return el("option", { value: n, selected: n === wanted, text: String(n) });
      }));
      const seats = document.getElementById("seat-choices");
      seats.replaceChildren(...Array.from({ length: wanted }, (_, i) => el("label", {}, `Seat ${i} `,
        el("select", { name: `seat${i}`, "data-seat": i },
          el("option", { value: "human", text: "human", selected: i === 0 }),
          Object.entries(game.difficulties || {}).map(([level, spec]) => el("option", { value: level, text: `${level} bot (${spec.split(":")[0]})`, selected: i > 0 && level === "medium" })),
          game.bots.map((b) => el("option", { value: b, text: `${b} bot` }))))));
      const options = document.getElementById("option-choices");
      options.replaceChildren(...Object.entries(game.options).map(([name, o]) => el("label", { title: o.help },
        o.type === "bool"
          ? [el("input", { type: "checkbox", name: `opt_${name}`, checked: o.default }), ` ${words(name)}`]
          : [`${words(name)} `, el("input", { type: o.type === "str" ? "text" : "number", name: `opt_${name}`, value: o.default })],
        el("div", { class: "muted", text: o.help }))));
      showRules(game.id, document.getElementById("rules"), document.getElementById("rules-link"));
      document.getElementById("rules-title").textContent = `The rules of ${game.title}`;
    }

    async function refresh() {
      try {
        for (const status of ["open", "running", "over"]) {
          const list = document.getElementById(`tables-${status}`);
          const mine = (await api("GET", `/api/tables?status=${status}&limit=20`)).tables;
          list.replaceChildren(...(mine.length ? mine.map((t) => el("li", {},
            el("strong", { text: t.title }), ` · ${t.num_players} players · `,
            t.seats.map((s) => s.free ? el("a", { href: `/tables/${t.id}/join/${s.seat}`, class: "join-link", text: `join seat ${s.seat}` }) : (s.name || "")).flatMap((x, i) => i ? [", ", x] : [x]),
            " · ",
            status === "over"
              ? el("a", { href: `/tables/${t.id}/replay`, text: "replay" })
              : el("a", { href: `/tables/${t.id}`, text: "watch" })))
            : [el("li", { class: "muted", text: "none" })]));
        }
      } catch (error) { notice.textContent = error.message; notice.className = "notice error"; }
    }

    form.addEventListener("change", (event) => { if (["game", "num_players"].includes(event.target.name)) drawForm(); });
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const game = currentGame();
      const options = {};
      for (const [name, o] of Object.entries(game.options)) {
        const input = form.elements[`opt_${name}`];
        options[name] = o.type === "bool" ? input.checked : o.type === "str" ? input.value : Number(input.value);
      }
      const n = Number(form.elements.num_players.value);
      const seats = Array.from({ length: n }, (_, i) => form.elements[`seat${i}`].value);
      const timer = form.elements.turn_seconds.value;
      try {
        const table = await api("POST", "/api/tables", {
          game: game.id, num_players: n, options, seats, turn_seconds: timer ? Number(timer) : null,
          private: form.elements.private.checked,
        });
        notice.className = "hidden";
        created.replaceChildren(el("h3", { text: table.private ? "Private table created" : "Table created" }),
          table.join.length
            ? el("div", {}, el("p", { text: table.private
              ? "Only you see these links: send each player their own (a link seats one player), or take a seat yourself:"
              : "Send each player their invite link, or take a seat yourself:" }),
              el("ul", { id: "invites" }, table.join.map((j) => el("li", {}, `Seat ${j.seat}: `,
                el("span", { class: "link-box mono", text: location.origin + j.join }), " ",
                el("a", { class: "button", href: j.join, text: "Sit here" })))))
            : el("p", {}, "Only bots play: ", el("a", { href: table.url, text: "watch the table" })));
        created.className = "panel";
        refresh();
      } catch (error) { notice.textContent = error.message; notice.className = "notice error"; }
    });

    api("GET", "/api/games").then((list) => {
      games = list;
      form.elements.game.replaceChildren(...games.map((g) => el("option", { value: g.id, text: g.title })));
      document.getElementById("rules-links").replaceChildren(...games.map((g) =>
        el("li", {}, el("a", { href: `/rules/${g.id}`, text: `The rules of ${g.title}` }))));
      drawForm();
    });
    refresh();
    setInterval(refresh, 5000);
  }

  // ---------------------------------------------------------------- the replay page

  function replayPage() {
    const id = tableIdFromPath();
    const root = document.getElementById("screen");
    const notice = document.getElementById("notice");
    const slider = document.getElementById("step");
    const as = document.getElementById("as");
    const where = document.getElementById("where");
    const said = document.getElementById("last");
    let step = 0;
    let steps = 0;
    let loaded = false;
    let asked = 0;  // answers to older requests that arrive late are dropped

    async function show(next) {
      step = Math.max(0, Math.min(next, steps || next));
      const ticket = ++asked;
      const who = as.value;
      const query = who === "all" ? "everyone=true" : who === "spectator" ? "" : `seat=${who}`;
      try {
        const data = await api("GET", `/api/tables/${id}/replay?step=${step}&${query}`);
        if (ticket !== asked) return;
        steps = data.steps;
        slider.max = steps;
        slider.value = step;
        if (!loaded) {
          loaded = true;
          as.replaceChildren(el("option", { value: "spectator", text: "a spectator" }),
            el("option", { value: "all", text: "everyone (all-seeing)" }),
            ...data.table.seats.map((s) => el("option", { value: s.seat, text: `seat ${s.seat}: ${s.name || ""}` })));
          as.value = who;
          analysable();
        }
        where.textContent = `${data.table.title} · table ${id} · replay`;
        document.getElementById("counter").textContent = `step ${step} of ${steps}`;
        said.textContent = !data.last ? "The start of the game."
          : data.last.action === null ? `Last: ${seatName(data.table, data.last.seat)} made a sealed choice (shown once it is revealed).`
          : `Last: ${seatName(data.table, data.last.seat)} played ${data.last.action}`;
        root.replaceChildren();
        const ctx = { readOnly: true, act() {}, explain() { return null; } };
        const views = data.views ? data.views.map((v, s) => [v, s]) : [[data.view, data.seat]];
        for (const [view, seat] of views) {
          // render() clears the element it draws in, so the heading sits outside it.
          const screen = el("div", { class: "replay-screen" });
          const box = el("div", { class: "replay-view", "data-seat": seat },
            data.views ? el("h2", { text: `As seat ${seat}: ${data.table.seats[seat].name || ""}` }) : null, screen);
          root.append(box);
          render(screen, { table: data.table, view, seat, to_act: data.to_act, legal: [], illegal: {}, outcome: null, step }, ctx);
        }
      } catch (error) { notice.textContent = error.message; notice.className = "notice error"; }
    }

    const analyse = document.getElementById("analyse");
    const analysis = document.getElementById("analysis");
    const pct = (x) => `${Math.round(100 * x)}%`;
    function analysable() {
      const seat = Number(as.value);
      analyse.disabled = !(as.value !== "spectator" && as.value !== "all" && Number.isInteger(seat));
      analyse.textContent = analyse.disabled ? "Choose a seat to analyse its moves" : `Analyse seat ${seat}'s moves`;
    }
    analyse.onclick = async () => {
      const seat = Number(as.value);
      analyse.disabled = true;
      analysis.replaceChildren(el("p", { text: "Analysing… (a search for each move; this can take a minute)" }));
      try {
        const data = await api("GET", `/api/tables/${id}/analysis?seat=${seat}`);
        const counts = ["inaccuracy", "mistake", "blunder"].map((v) => `${data.moves.filter((m) => m.verdict === v).length} ${v === "inaccuracy" ? "inaccuracies" : v + "s"}`);
        analysis.replaceChildren(
          el("p", { text: `Seat ${seat}, judged by ${data.bot}: ${counts.join(", ")}. Estimates are Monte Carlo: small losses are noise.` }),
          el("table", { class: "analysis" },
            el("tr", {}, ...["Move", "Played", "Win chance after", "Preferred", "With it", "Loss", ""].map((h) => el("th", { text: h }))),
            ...data.moves.map((m) => el("tr", { class: m.verdict || "" },
              el("td", {}, el("button", { text: String(m.number), title: "show the game before this move", onclick: () => show(m.number - 1) })),
              el("td", { text: m.played }),
              el("td", { text: pct(m.after) }),
              el("td", { text: m.preferred === m.played ? "(same)" : m.preferred }),
              el("td", { text: pct(m.before) }),
              el("td", { text: pct(m.loss) }),
              el("td", { text: m.verdict })))));
      } catch (error) { analysis.replaceChildren(el("p", { class: "error", text: error.message })); }
      analysable();
    };

    document.getElementById("play-here").onclick = async () => {
      const mine = Number.isInteger(Number(as.value)) && as.value !== "" ? Number(as.value) : 0;
      try {
        const meta = await api("GET", `/api/tables/${id}/replay?step=0`);
        const seats = meta.table.seats.map((s) => (s.seat === mine ? "human" : "medium"));
        const created = await api("POST", "/api/tables", { game: meta.table.game, seats, from_table: id, from_step: step });
        window.location.href = created.join[0].join;
      } catch (error) { notice.textContent = error.message; notice.className = "notice error"; }
    };

    document.getElementById("first").onclick = () => show(0);
    document.getElementById("back").onclick = () => show(step - 1);
    document.getElementById("next").onclick = () => show(step + 1);
    document.getElementById("last-step").onclick = () => show(steps);
    slider.oninput = () => show(Number(slider.value));
    as.onchange = () => { analysable(); analysis.replaceChildren(); show(step); };
    document.addEventListener("keydown", (event) => {
      if (event.key === "ArrowRight") show(step + 1);
      if (event.key === "ArrowLeft") show(step - 1);
    });
    show(0);
  }

  // Each page names its script in <body data-page=...>: the pages hold no inline script,
  // so the Content-Security-Policy can forbid it.
  // Pieces drawn as role="button" (a board's spaces, a ball's groups) work from the keyboard
  // like buttons: Enter or Space clicks them, and focus comes back to the same piece after
  // the screen is redrawn.
  document.addEventListener("keydown", (event) => {
    const piece = event.target;
    if (!(piece instanceof HTMLElement) || piece.tagName === "BUTTON" || piece.getAttribute("role") !== "button") return;
    if (event.key !== "Enter" && event.key !== " ") return;
    event.preventDefault();
    const same = ["data-space", "data-position", "data-card", "data-action"]
      .filter((name) => piece.hasAttribute(name))
      .map((name) => `[role="button"][${name}="${CSS.escape(piece.getAttribute(name))}"]`)[0];
    piece.click();
    if (same) setTimeout(() => { const again = document.querySelector(same); if (again) again.focus(); }, 0);
  });

  document.addEventListener("DOMContentLoaded", () => {
    const pages = { lobby: lobbyPage, join: joinPage, table: tablePage, replay: replayPage };
    const start = pages[document.body.dataset.page];
    if (start) start();
  });

  return { el, api, value, objectTable, namedSeats, seatsPanel, actionsPanel, actionButton, otherActions, saying, seatName, renderers, render, tablePage, joinPage, lobbyPage, replayPage };
})();
