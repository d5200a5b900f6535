// Potluck in the browser: what every page shares (building nodes, the API, players' names,
// move buttons that say why they are not possible, the turn's status and timers) and the
// focus across redraws. The table page is in table.js, the lobby and join pages in lobby.js,
// the replay page in replay.js.
// Plain JavaScript, no build step and no fetches beyond this server. Everything shown is built
// with textContent (never innerHTML; the server-sanitised rules are parsed by DOMParser), so a
// player's name cannot inject markup.
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

  // A request to the API; a refusal throws an Error with the server's sentence, its HTTP
  // status and its error code (`too_many_tables`, `illegal_action`...).
  async function api(method, path, body) {
    const options = { method, headers: {}, credentials: "same-origin" };
    // A logged-in player's changes carry the session's CSRF token (accounts.js, docs/web.md).
    const csrf = document.cookie.split("; ").find((c) => c.startsWith("potluck_csrf="));
    if (method !== "GET" && csrf) options.headers["X-CSRF-Token"] = decodeURIComponent(csrf.split("=")[1]);
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
      error.code = data && data.error;
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
        // Inside a page the rules' headings go one level down: the page's own h1 stays its only one.
        for (const heading of parsed.body.querySelectorAll("h1, h2, h3, h4, h5")) {
          const lower = parsed.createElement(`h${Number(heading.tagName[1]) + 1}`);
          lower.append(...heading.childNodes);
          heading.replaceWith(lower);
        }
        body.replaceChildren(...parsed.body.childNodes);
      }
    } catch (error) {
      body.textContent = `The rules could not be loaded: ${error.message}`;
    }
  }

  function words(key) { return String(key).replace(/[_-]/g, " "); }

  // "1 vote", "2 votes"; "1 Belle", "3 Belles"; "1 invitation left".
  function plural(count, one, many) { return `${count} ${count === 1 ? one : (many || `${one}s`)}`; }

  // "Ann", "Ann and Bob", "Ann, Bob and Cy".
  function listOf(names) {
    return names.length <= 1 ? names.join("") : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
  }

  // "90 s", "2 min", "1 min 30 s", "1 h": a timer's length in words.
  function duration(seconds) {
    if (seconds < 60) return `${seconds} s`;
    if (seconds % 3600 === 0) return `${seconds / 3600} h`;
    const minutes = Math.floor(seconds / 60);
    return seconds % 60 ? `${minutes} min ${seconds % 60} s` : `${minutes} min`;
  }

  // "1:05": a countdown's time left.
  function clock(seconds) {
    const s = Math.max(0, Math.ceil(seconds));
    return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
  }

  // ------------------------------------------------------------ players by name
  // The engine names a seat "seat N" (N from 0, as in the notation). A page shows its name:
  // the player's, "Bot 2 (medium)" for a bot's seat (numbers from 1), "Ann (bot)" when a bot
  // plays Ann's seat, and "you" for the player looking ("You buy...", "your Momo Mia").
  // potluck/renderers/names.py does the same for the terminal; both are checked against
  // tests/data/naming.json.

  // Each seat's name as anyone sees it (no "you").
  function seatNames(table) {
    const raw = table.seats.map((s) => {
      if (s.kind === "bot") return `Bot ${s.seat + 1} (${s.bot || "bot"})`;
      if (s.free) return `Seat ${s.seat + 1} (free)`;
      return s.name || `Seat ${s.seat + 1}`;
    });
    const names = raw.map((name, i) => (raw.filter((n) => n === name).length > 1 ? `${name} (seat ${i + 1})` : name));
    return names.map((name, i) => {
      const s = table.seats[i];
      return s.kind !== "bot" && s.taken_over ? `${name} (bot)` : name;
    });
  }

  const REFERENCE = /\b([Ss]eats?) (\d+(?:(?:, |,? and )\d+)*)\b('s)?(?! ?(?:to|-|–) ?\d)/g;
  const SENTENCE_START = /(?:^|[.!?]\s+)$/;
  const CLAUSE_START = /(?:^|[.:;!?]\s+)$/;
  const IRREGULAR = { is: "are", was: "were", has: "have", does: "do", goes: "go" };
  const MORE_VERBS = new Set(("is has wins owes lands pays fails stays takes scores gets loses earns buys sells gives " +
    "receives keeps shares ties goes passes rolls").split(" "));
  const SUBJECT = "\u0000";
  const YOU_SUBJECT = /\u0000([Yy]ou)(\s*\([^)]*\))?(\s+)([a-z]+)([^.!?\u0000]*)/g;

  // "buys" -> "buy", "passes" -> "pass", "is" -> "are"; other words as they are.
  function secondPerson(verb) {
    if (IRREGULAR[verb]) return IRREGULAR[verb];
    if (verb.length > 3 && verb.endsWith("ies")) return `${verb.slice(0, -3)}y`;
    if (/(?:ss|sh|ch|x|z|o)es$/.test(verb)) return verb.slice(0, -2);
    if (verb.endsWith("s") && !/(?:ss|us|is)$/.test(verb) && verb.length > 2) return verb.slice(0, -1);
    return verb;
  }

  // The names of `table`'s seats as the player in seat `you` sees them (null: a spectator).
  function namer(table, you) {
    const names = seatNames(table);
    const mine = you !== null && you !== undefined && table.seats[you] ? table.seats[you] : null;
    const yourBot = Boolean(mine && mine.taken_over);
    const cap = (text, start) => (start ? text[0].toUpperCase() + text.slice(1) : text);
    function name(seat, start) {
      if (mine && seat === you) return cap(yourBot ? "your bot" : "you", start);
      return names[seat] !== undefined ? names[seat] : `seat ${seat + 1}`;
    }
    function possessive(seat, start) {
      if (mine && seat === you && !yourBot) return cap("your", start);
      return `${name(seat, start)}'s`;
    }
    function text(sentence) {
      const source = String(sentence);
      const out = source.replace(REFERENCE, (whole, word, numbers, owner, offset) => {
        const seats = numbers.split(/, and |, | and /).map(Number);
        if (seats.some((s) => !(s >= 0 && s < names.length))) return whole;
        const before = source.slice(0, offset);
        const start = SENTENCE_START.test(before);
        const subject = CLAUSE_START.test(before);
        if (owner) return possessive(seats[0], start);
        if (seats.length > 1) return listOf(seats.map((s, i) => name(s, start && i === 0)));
        if (subject && mine && seats[0] === you && !yourBot) return SUBJECT + (start ? "You" : "you");
        return name(seats[0], start);
      });
      return out.replace(YOU_SUBJECT, (whole, you_, paren, space, verb, rest) =>
        you_ + (paren || "") + space + secondPerson(verb) +
        rest.replace(/((?:\band|[,:;]) )([a-z]+)/g, (all, joint, word) => joint + (MORE_VERBS.has(word) ? secondPerson(word) : word)));
    }
    return { name, possessive, text, names };
  }

  // A seat's name as the payload's viewer sees it; `start`: at the start of a sentence.
  function who(payload, seat, start) { return namer(payload.table, payload.seat).name(seat, start); }
  function whose(payload, seat, start) { return namer(payload.table, payload.seat).possessive(seat, start); }
  // An engine sentence (a log line, a reason, a move's description) with names for seats.
  function says(payload, text) { return namer(payload.table, payload.seat).text(text); }
  // "You win" or "Ann wins": a verb after a seat's name, in the person its name needs.
  function does(payload, seat, verb) {
    const name = who(payload, seat, true);
    return `${name} ${name === "You" ? secondPerson(verb) : verb}`;
  }

  // A table's state in words.
  const STATUS = { open: "waiting for players", running: "being played", over: "finished", expired: "expired", closed: "closed", broken: "stopped" };

  // The number a page shows for a seat: from 1.
  function seatNumber(seat) { return String(seat + 1); }

  // The seats a person plays and who is to act now.
  function isHuman(table, seat) {
    const s = table.seats[seat];
    return Boolean(s && s.kind !== "bot" && !s.taken_over && !s.free);
  }

  // ------------------------------------------------------------ the generic screen

  // A readable rendering of any JSON value: the generic screen's building block.
  function value(v) {
    if (v === null || v === undefined) return el("span", { class: "muted", text: "-" });
    if (typeof v === "boolean") return document.createTextNode(v ? "yes" : "no");
    if (typeof v !== "object") return document.createTextNode(String(v));
    if (Array.isArray(v)) {
      if (v.length === 0) return el("span", { class: "muted", text: "none" });
      if (v.every((x) => x !== null && typeof x === "object" && !Array.isArray(x))) return objectTable(v);
      if (v.every((x) => x === null || typeof x !== "object")) return document.createTextNode(v.map((x) => (x === null ? "-" : x)).join(", "));
      return el("ol", {}, v.map((x) => el("li", {}, value(x))));
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

  // ------------------------------------------------------------ the turn: who acts, timers

  // When the page first saw each bot's turn (a bot is "thinking" from then on): kept across
  // redraws of one state, so a push that changes nothing else does not restart its clock.
  const thinking = { key: null, since: 0 };
  // The turn timer's deadline last shown (ms since the epoch).
  const timer = { deadline: 0 };

  // Who is to act now, as a sentence, with the turn timer's countdown or how long the bots
  // have been choosing. Its numbers tick (see `tick`); it is the acting area's anchor: focus
  // comes back to it after a move, so a keyboard player goes on from where they were.
  function turnStatus(payload) {
    const t = payload.table;
    const box = el("div", { class: "turn-status", id: "turn-status", tabindex: "-1" });
    if (payload.outcome || t.status !== "running") {
      box.append(el("span", { text: t.status === "open" ? "Waiting for players to take the free seats."
        : t.status === "expired" ? "This table expired: nothing happened at it for too long."
          : t.status === "closed" ? "Its creator closed this table: the game ended here."
            : t.status === "broken" ? "This table cannot go on." : "The game is over." }));
      if (["expired", "closed"].includes(t.status)) {
        box.append(" ", el("a", { href: `/tables/${t.id}/replay`, text: "Watch the replay" }));
      }
      return box;
    }
    const acting = payload.to_act || [];
    const mine = payload.seat !== null && payload.seat !== undefined && acting.includes(payload.seat) && payload.legal.length;
    const bots = acting.filter((s) => !isHuman(t, s));
    const people = acting.filter((s) => isHuman(t, s));
    const key = `${payload.step}:${bots.join(",")}`;
    if (thinking.key !== key) { thinking.key = key; thinking.since = Date.now(); }
    if (mine) box.append(el("strong", { class: "your-turn", text: "Your move." }), " ");
    const others = people.filter((s) => s !== payload.seat || !mine);
    if (others.length) {
      box.append(el("span", { class: "waiting-on" }, `${mine ? "Also waiting for" : "Waiting for"} ${listOf(others.map((s) => who(payload, s)))}.`), " ");
    }
    if (bots.length) {
      box.append(el("span", { class: "thinking" },
        `${bots.length === 1 ? `${who(payload, bots[0], true)} is` : `${listOf(bots.map((s, i) => who(payload, s, i === 0)))} are`} choosing: `,
        el("span", { class: "since", "data-since": thinking.since, text: "0.0 s" }), "."), " ");
    }
    if (t.seconds_left !== undefined && t.seconds_left !== null && people.length) {
      // The server sends whole seconds: a push a moment later may round the same deadline
      // up. Within a second and a half of the one shown, it is the same deadline.
      const sent = Date.now() + 1000 * t.seconds_left;
      const deadline = Math.abs(sent - timer.deadline) < 1500 ? Math.min(sent, timer.deadline) : sent;
      timer.deadline = deadline;
      const mineTimed = people.includes(payload.seat);
      const warnAt = Math.min(30, Math.max(10, Math.round((t.turn_seconds || 120) / 4)));
      box.append(el("span", {
        class: "countdown", "data-deadline": deadline, "data-warn": warnAt, "data-mine": mineTimed ? "1" : null,
        "aria-label": "time left to move",
      },
      el("span", { class: "left", text: clock((deadline - Date.now()) / 1000) }),
      mineTimed ? " left to move, then a bot plays for you" : ` left for ${listOf(people.map((s) => who(payload, s)))}, then a bot plays`));
    }
    return box;
  }

  // The ticking parts of the page: countdowns (warned once each, aloud, near their end) and
  // how long the bots have been choosing.
  function tick() {
    const now = Date.now();
    for (const box of document.querySelectorAll("[data-deadline]")) {
      const left = (Number(box.dataset.deadline) - now) / 1000;
      const shown = box.querySelector(".left");
      if (shown) shown.textContent = clock(left);
      const warn = left <= Number(box.dataset.warn);
      box.classList.toggle("warn", warn);
      if (warn && box.dataset.mine && !box.dataset.warned) {
        box.dataset.warned = "1";
        alertAloud(`${Math.max(0, Math.ceil(left))} seconds left to move: then a bot plays for you.`);
      }
    }
    for (const since of document.querySelectorAll("[data-since]")) {
      since.textContent = `${((now - Number(since.dataset.since)) / 1000).toFixed(1)} s`;
    }
  }

  // Said to a screen reader at once (an assertive live region outside the redrawn screen).
  function alertAloud(text) {
    let box = document.getElementById("alert");
    if (!box) { box = el("div", { id: "alert", class: "visually-hidden", role: "alert" }); document.body.append(box); }
    box.textContent = text;
  }

  // ------------------------------------------------------------ seats and moves

  // The seats: who plays where (numbers from 1), who is a bot, who must act now.
  function seatsPanel(payload) {
    const t = payload.table;
    return el("section", { class: "panel" }, el("h2", { text: "Seats" }),
      el("div", { class: "scroll" }, el("table", { class: "data", id: "seats" },
        el("tbody", {}, t.seats.map((s) => el("tr", {},
          el("td", { text: seatNumber(s.seat) }),
          el("td", {},
            s.free ? (t.private ? el("em", { text: "free seat (by invite)" }) : el("a", { href: `/tables/${t.id}/join/${s.seat}`, text: "free seat: join" })) : who(payload, s.seat, true),
            s.seat === payload.seat ? el("span", { class: "badge", text: "you" }) : null,
            s.account && s.name ? el("a", { class: "badge profile", href: `/players/${encodeURIComponent(s.name)}`, text: "profile" }) : null,
            s.kept_for ? el("span", { class: "badge", text: `kept for ${s.kept_for}` }) : null,
            s.kind === "bot" ? el("span", { class: "badge bot", text: "bot" }) : null,
            s.taken_over ? el("span", { class: "badge away", text: `a ${s.played_by_bot} bot plays (${s.taken_over === "timeout" ? "out of time" : s.taken_over === "kicked" ? "given to a bot" : "left"})` }) : null,
            payload.to_act.includes(s.seat) && !payload.outcome && t.status === "running" ? el("span", { class: "badge turn", text: "to act" }) : null)))))),
      recentMoves(payload));
  }

  // The latest moves, each by its seat's name (which says "bot"); another seat's part of a
  // sealed choice comes without its text.
  function recentMoves(payload) {
    const moves = payload.moves || [];
    if (!moves.length) return null;
    return el("div", { id: "recent-moves" }, el("h3", { text: "Recent moves" }),
      el("ol", { class: "moves-log" }, moves.map((m) => el("li", {
        text: m.text === null ? `${who(payload, m.seat, true)} made a sealed choice.` : `${who(payload, m.seat, true)}: ${says(payload, m.text)}`,
      }))));
  }

  // Why a move is not possible, shown next to its button on a click, a tap or Enter (a
  // phone has no hover), and said by screen readers (a polite live region).
  function showWhy(anchor, text) {
    let note = document.getElementById("why-note");
    if (!note) {
      note = el("div", { id: "why-note", class: "why-note", role: "status" });
      document.body.append(note);
    }
    note.textContent = text;
    note.classList.add("shown");
    const box = anchor.getBoundingClientRect();
    const width = Math.min(320, window.innerWidth - 16);
    note.style.width = `${width}px`;
    note.style.left = `${Math.max(8, Math.min(box.left, window.innerWidth - width - 8)) + window.scrollX}px`;
    note.style.top = `${box.bottom + window.scrollY + 6}px`;
    clearTimeout(showWhy.timer);
    showWhy.timer = setTimeout(hideWhy, 8000);
  }
  function hideWhy() {
    const note = document.getElementById("why-note");
    if (note) note.classList.remove("shown");
  }
  document.addEventListener("keydown", (event) => { if (event.key === "Escape") hideWhy(); });
  document.addEventListener("click", (event) => {
    if (!(event.target instanceof Element) || !event.target.closest("[aria-disabled=true]")) hideWhy();
  });

  // The rules engine's reasons name moves in the notation the API and the terminal's help
  // use ("'buy' it or 'pass'", "take a cube ('take <colour>')"); a page has buttons in words
  // instead, so a reason drops the notation: a bracketed hint goes, a trailing ": 'yuck
  // <seat>'" goes, "'insure <restaurant>' or" keeps its verb, and quotes around a move go;
  // a rulebook step's name before a reason ("Step 2, Group: ...") goes too.
  function plainReason(text) {
    return String(text)
      .replace(/ \('[^']*'\)/g, "")
      .replace(/[:;] '[a-z]+ <[a-z ]+>'(?=[.;]|$)/g, "")
      .replace(/'([a-z]+) <[a-z ]+>'/g, "$1")
      .replace(/'([a-z][a-z0-9 -]*)'/g, "$1")
      .replace(/^Step \d+, [A-Z][a-z]+: (.)/, (_, first) => first.toUpperCase());
  }

  // A reason from the engine as a page says it: players by name, moves in words.
  function reasonWords(payload, text) { return plainReason(says(payload, text)); }

  // Why the seat cannot take `action` now: the payload's reason, the game's answer from the
  // server (games with many actions), or whose turn it is.
  async function reasonFor(payload, action) {
    const known = (payload.illegal || {})[action];
    if (known) return reasonWords(payload, known);
    const acting = payload.to_act || [];
    if (payload.table.status !== "running" || payload.outcome) return "The game is not being played now.";
    if (!acting.includes(payload.seat)) return `Not your turn: waiting for ${listOf(acting.map((s) => who(payload, s)))}.`;
    try {
      const answer = await api("GET", `/api/tables/${payload.table.id}/explain?action=${encodeURIComponent(action)}`);
      return answer.reason ? reasonWords(payload, answer.reason) : "Not possible now.";
    } catch (error) {
      return error.message;
    }
  }

  // A button for one action: live when legal; otherwise it stays focusable and says why it is
  // not possible when clicked, tapped or pressed (aria-disabled, not disabled: a disabled
  // button gets no focus, no tap and no keyboard). Spectators and replays get inert buttons.
  function actionButton(payload, ctx, action, attrs, ...children) {
    const legal = payload.legal.find((a) => a.action === action);
    const seated = payload.seat !== null && payload.seat !== undefined;
    const content = children.length ? children : (legal ? says(payload, legal.label) : words(action));
    if (legal && !ctx.readOnly) {
      return el("button", { ...attrs, type: "button", "data-action": action, title: says(payload, legal.label), onclick: () => ctx.act(action) }, content);
    }
    if (ctx.readOnly || !seated) return el("button", { ...attrs, type: "button", "data-action": action, disabled: true }, content);
    const known = (payload.illegal || {})[action];
    const button = el("button", {
      ...attrs, type: "button", "data-action": action, "aria-disabled": "true",
      title: known ? reasonWords(payload, known) : "Not possible now: press for why",
    }, content);
    button.addEventListener("click", async (event) => {
      event.preventDefault();
      const reason = await reasonFor(payload, action);
      button.title = reason;
      showWhy(button, reason);
    });
    return button;
  }

  // The legal actions as buttons, the others with their reasons (the generic screen).
  function actionsPanel(payload, ctx) {
    const box = el("section", { class: "panel", id: "actions" }, el("h2", { text: "Your move" }));
    if (payload.seat === null || payload.seat === undefined) {
      box.append(el("p", { class: "muted", text: "You are watching as a spectator." }));
      return box;
    }
    if (!payload.legal.length) {
      box.append(el("p", { class: "muted", id: "waiting", text: "Nothing to do now." }));
      return box;
    }
    box.append(el("div", { class: "actions" }, payload.legal.map((a) => actionButton(payload, ctx, a.action, {}))));
    const blocked = Object.keys(payload.illegal || {});
    if (blocked.length) {
      box.append(el("details", {}, el("summary", { class: "muted", text: `Why not the other ${plural(blocked.length, "move")}?` }),
        el("div", { class: "actions" }, blocked.map((action) => actionButton(payload, ctx, action, { class: "secondary" })))));
    }
    return box;
  }

  // What a button for `action` says: the server's description of the move when it is legal
  // (words, not notation), else the screen's own short words for it.
  function saying(payload, action, fallback) {
    const legal = payload.legal.find((a) => a.action === action);
    return legal ? says(payload, legal.label) : fallback;
  }

  // The legal actions no piece on the screen offers, as plain buttons.
  function otherActions(payload, ctx, shown) {
    const rest = payload.legal.filter((a) => !shown.has(a.action));
    if (!rest.length || ctx.readOnly) return null;
    return el("div", { class: "actions", id: "other-actions" }, rest.map((a) => actionButton(payload, ctx, a.action, {})));
  }

  // "Game over: you win with 32 Gourmet Points." The game's reason names the winners; if it
  // does not, the banner names them first.
  function outcomeBanner(payload) {
    if (!payload.outcome) return null;
    const o = payload.outcome;
    const reason = says(payload, o.reason || "");
    const named = o.winners.every((s) => reason.toLowerCase().includes(who(payload, s).toLowerCase()));
    const lead = named ? "" : `${o.winners.length > 1 ? `${listOf(o.winners.map((s, i) => who(payload, s, i === 0)))} share the win` : does(payload, o.winners[0], "wins")}. `;
    return el("div", { class: "notice good", id: "outcome" },
      el("strong", { text: "Game over: " }), lead, reason, " ",
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

  // The screen is drawn anew on every change: a box that scrolls on its own (a board or a
  // line wider than a phone, marked data-keep-scroll="NAME") keeps where the player had
  // scrolled it, instead of jumping back to its start at every bot's move.
  function scrolled(root) {
    const kept = {};
    for (const box of root.querySelectorAll("[data-keep-scroll]")) {
      kept[box.dataset.keepScroll] = [box.scrollLeft, box.scrollTop];
    }
    return kept;
  }

  function rescroll(root, kept) {
    for (const box of root.querySelectorAll("[data-keep-scroll]")) {
      const at = kept[box.dataset.keepScroll];
      if (at) [box.scrollLeft, box.scrollTop] = at;
    }
  }

  function render(root, payload, ctx) {
    const kept = scrolled(root);
    root.replaceChildren();
    if (payload.table.practice) root.append(practiceNote(payload.table));
    if (!ctx.readOnly) {
      const banner = outcomeBanner(payload);
      root.append(banner || turnStatus(payload));
    }
    const draw = renderers[payload.table.game] || genericScreen;
    draw(root, payload, ctx);
    rescroll(root, kept);
  }

  // ------------------------------------------------------------ focus across redraws

  // A control's identity across redraws: the screen is drawn anew on every change, and focus
  // must come back to the same piece (or to the turn's status) rather than jump to the top.
  const IDENTITY = ["data-action", "data-space", "data-card", "data-position", "data-ingredient", "data-shop", "data-channel", "data-group", "id", "name"];
  function identity(node) {
    if (!(node instanceof HTMLElement)) return null;
    for (const name of IDENTITY) {
      if (node.hasAttribute(name)) return `${node.tagName.toLowerCase()}[${name}="${CSS.escape(node.getAttribute(name))}"]`;
    }
    return null;
  }

  // The tables this browser created or sits at, newest first (the lobby's "Your tables"
  // asks the server which of them are still there).
  function remember(tableId) {
    const known = JSON.parse(localStorage.getItem("potluck-my-tables") || "[]").filter((t) => t !== tableId);
    localStorage.setItem("potluck-my-tables", JSON.stringify([tableId, ...known].slice(0, 100)));
  }

  // Pieces drawn as role="button" (a board's spaces, a ball's guests) work from the keyboard
  // like buttons: Enter or Space clicks them, and focus comes back to the same piece after
  // the screen is redrawn.
  document.addEventListener("keydown", (event) => {
    const piece = event.target;
    if (!(piece instanceof HTMLElement) || piece.tagName === "BUTTON" || piece.getAttribute("role") !== "button") return;
    if (event.key !== "Enter" && event.key !== " ") return;
    event.preventDefault();
    const same = identity(piece);
    piece.click();
    if (same) setTimeout(() => { const again = document.querySelector(same); if (again) again.focus(); }, 0);
  });

  // Each page names its script in <body data-page=...>: the pages hold no inline script,
  // so the Content-Security-Policy can forbid it.
  const pages = {};  // each page's script adds its own (table.js, lobby.js, replay.js)
  document.addEventListener("DOMContentLoaded", () => {
    const start = pages[document.body.dataset.page];
    if (start) start();
  });

  return {
    el, api, words, plural, listOf, duration, clock, value, objectTable, showRules, tableIdFromPath,
    seatNames, namer, who, whose, says, does, secondPerson, seatNumber, isHuman, seatsPanel,
    actionsPanel, actionButton, plainReason, otherActions, saying, outcomeBanner, practiceNote, render, renderers, pages, remember,
    STATUS, tick, identity,
  };
})();
