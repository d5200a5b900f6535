// The lobby (Play now, your tables, creating a table, the public tables) and the join page.
// Built on potluck.js (Potluck.el, Potluck.api...); seats are numbered from 1 on the page.
"use strict";

(() => {
  const { el, api, words, plural, listOf, duration, showRules, remember } = Potluck;
  // A variant option's key as its label, a sentence's start: "Belles in guest deck".
  const optionLabel = (name) => { const text = words(name); return text.charAt(0).toUpperCase() + text.slice(1); };
  const LEVELS = {
    easy: ["Easy", "plays any legal move at random"],
    medium: ["Medium", "takes the move that looks best right now"],
    hard: ["Hard", "searches ahead; takes a moment to think"],
  };

  function failed(notice, error) {
    notice.replaceChildren(error.message);
    if (["account_needed", "name_taken", "seat_kept"].includes(error.code)) {
      notice.append(" ", el("a", { href: `/account?next=${encodeURIComponent(location.pathname)}`, text: "Log in or sign up" }));
    }
    if (error.code === "too_many_tables") {
      notice.append(" ", el("a", { href: "#your-tables", text: "See your tables: close or leave one." }));
    }
    notice.className = "notice error";
  }

  // A name kept in this browser for the next table (never sent anywhere but a seat's join).
  function savedName() { return localStorage.getItem("potluck-name") || ""; }
  function saveName(name) { if (name) localStorage.setItem("potluck-name", name); }

  // A table's one-line summary: game, players (by name, numbers from 1), timer.
  function seatsLine(t) {
    return t.seats.map((s) => {
      if (s.free) return t.private ? `seat ${s.seat + 1} free` : el("a", { href: `/tables/${t.id}/join/${s.seat}`, class: "join-link", text: `take seat ${s.seat + 1}` });
      return s.kind === "bot" ? `Bot ${s.seat + 1} (${s.bot})` : (s.name || `seat ${s.seat + 1}`);
    }).flatMap((x, i) => (i ? [", ", x] : [x]));
  }

  function timerWords(t) { return t.turn_seconds ? `${duration(t.turn_seconds)} turn timer` : "no turn timer"; }
  const STATUS = { open: "waiting for players", running: "being played", over: "finished", expired: "expired", closed: "closed" };
  // How many of this browser's tables the lobby asks the server about.
  const MY_TABLES = 30;

  function lobbyPage() {
    const form = document.getElementById("create-form");
    const playForm = document.getElementById("play-form");
    const created = document.getElementById("created");
    const notice = document.getElementById("notice");
    let games = [];
    // The server's settings a player may want to know (GET /api/server).
    let server = { public_turn_seconds: null };

    function gameOf(select) { return games.find((g) => g.id === select.value); }

    // A logged-in player plays under their account's name, may play rated, and their
    // tables come from the server (on any device) as well as from this browser.
    let me = null;
    const session = typeof PotluckAccounts !== "undefined" ? PotluckAccounts.session() : Promise.resolve({ account: null });
    session.then(({ account }) => {
      me = account;
      if (!me) return;
      document.getElementById("player-name-label").classList.add("hidden");
      document.getElementById("play-rated-label").classList.remove("hidden");
      document.getElementById("your-tables-note").textContent = `Every table you (${me.name}) sit at, are invited to or created, on any device, and those this browser knows.`;
      drawMine();
    });

    // What the timer field means for the table being made, in words.
    function timerHint() {
      const hint = document.getElementById("timer-hint");
      const choice = form.elements.turn_timer.value;
      const seats = Array.from(form.querySelectorAll("select[data-seat]"), (select) => select.value);
      const friends = seats.filter((kind) => kind === "human").length > 1;
      if (choice !== "default") {
        hint.textContent = choice === "0" ? "No timer: everyone takes as long as they like."
          : `Each player has ${duration(Number(choice))} for each move; then a bot plays their seat until they take it back.`;
      } else if (form.elements.private.checked) {
        hint.textContent = "The default for a private table of friends: no timer.";
      } else if (!friends) {
        hint.textContent = "The default when the other seats are all bots: no timer.";
      } else if (server.public_turn_seconds) {
        hint.textContent = `The default at a public table: ${duration(server.public_turn_seconds)} for each move; then a bot plays the late player's seat until they take it back.`;
      } else {
        hint.textContent = "The default on this server: no timer.";
      }
    }

    function drawForm() {
      const game = gameOf(form.elements.game);
      const players = form.elements.num_players;
      const wanted = Math.min(Math.max(Number(players.value) || game.min_players, game.min_players), game.max_players);
      players.replaceChildren(...Array.from({ length: game.max_players - game.min_players + 1 }, (_, i) => {
        const n = game.min_players + i;
        return el("option", { value: n, selected: n === wanted, text: String(n) });
      }));
      const seats = document.getElementById("seat-choices");
      seats.replaceChildren(...Array.from({ length: wanted }, (_, i) => el("label", {}, `Seat ${i + 1} `,
        el("select", { name: `seat${i}`, "data-seat": i },
          el("option", { value: "human", text: i === 0 ? "a person (you)" : "a person (send them a link)", selected: i === 0 }),
          Object.keys(game.difficulties || {}).map((level) => el("option", {
            value: level, selected: i > 0 && level === "medium",
            text: `${(LEVELS[level] || [words(level)])[0]} bot: ${(LEVELS[level] || ["", game.difficulties[level]])[1]}`,
          }))))));
      const options = document.getElementById("option-choices");
      options.replaceChildren(...Object.entries(game.options).map(([name, o]) => el("label", {},
        o.type === "bool"
          ? [el("input", { type: "checkbox", name: `opt_${name}`, checked: o.default }), ` ${optionLabel(name)}`]
          : [`${optionLabel(name)} `, el("input", { type: o.type === "str" ? "text" : "number", name: `opt_${name}`, value: o.default })],
        el("div", { class: "muted", text: o.help }))));
      showRules(game.id, document.getElementById("rules"), document.getElementById("rules-link"));
      document.getElementById("rules-title").textContent = `The rules of ${game.title}`;
      timerHint();
    }

    function drawPlayForm() {
      const game = gameOf(playForm.elements.play_game);
      const players = playForm.elements.play_players;
      const wanted = Math.min(Math.max(Number(players.value) || 4, game.min_players), game.max_players);
      players.replaceChildren(...Array.from({ length: game.max_players - game.min_players + 1 }, (_, i) => {
        const n = game.min_players + i;
        return el("option", { value: n, selected: n === wanted, text: String(n) });
      }));
    }

    // Play now: one click makes a table of you and bots of the chosen difficulty, seats you
    // and opens it. The table is private: a game of your own, not listed in the lobby (it is
    // under "Your tables"), and with no turn timer.
    async function playNow(level) {
      const game = gameOf(playForm.elements.play_game);
      const n = Number(playForm.elements.play_players.value);
      const name = me ? me.name : playForm.elements.player_name.value.trim() || "Player";
      if (!me) saveName(name);
      try {
        const table = await api("POST", "/api/tables", {
          game: game.id, num_players: n, seats: ["human", ...Array(n - 1).fill(level)], private: true,
          rated: Boolean(me && playForm.elements.rated.checked),
        });
        remember(table.id);
        const invite = table.join[0].join.split("/").pop();
        const joined = await api("POST", `/api/tables/${table.id}/seats/0`, { name, invite });
        localStorage.setItem(`potluck-seat-link-${table.id}`, joined.seat_link);
        location.href = table.url;
      } catch (error) { failed(notice, error); }
    }

    // Your tables: every table this browser created or sits at (private ones and ones not
    // yet started included), newest first, each as the server says it is now, with what you
    // may do there: resume, leave (a bot plays your seat), close (its creator), replay.
    async function drawMine() {
      const list = document.getElementById("tables-mine");
      const account = me ? await api("GET", "/api/account/tables").catch(() => ({ tables: [] })) : { tables: [] };
      const kept = Object.fromEntries(account.tables.filter((t) => t.invited !== null).map((t) => [t.id, t.invited]));
      const local = JSON.parse(localStorage.getItem("potluck-my-tables") || "[]");
      const ids = [...new Set([...account.tables.map((t) => t.id), ...local])].slice(0, MY_TABLES);
      const found = (await Promise.all(ids.map((id) => api("GET", `/api/tables/${id}`).catch(() => null)))).filter(Boolean);
      const mine = found.filter((p) => p.host || (p.seat !== null && p.seat !== undefined) || kept[p.table.id] !== undefined);
      list.replaceChildren(...(mine.length ? mine.map((p) => {
        const t = { ...p.table, seat: p.seat, host: p.host };
        const live = ["open", "running"].includes(t.status);
        const seated = t.seat !== null && t.seat !== undefined;
        const away = seated && t.seats[t.seat].taken_over;
        return el("li", { "data-table": t.id },
          el("strong", { text: t.title }), ` · ${t.private ? "private" : "public"}${t.rated ? " · rated" : ""} · ${STATUS[t.status] || t.status} · ${timerWords(t)} · `,
          seatsLine(t), " ",
          el("span", { class: "actions inline" },
            live && seated ? el("a", { class: "button", href: `/tables/${t.id}`, text: away ? "Take my seat back" : "Resume" }) : null,
            live && !seated && kept[t.id] !== undefined ? el("button", { class: "take-kept", onclick: () => takeKept(t.id, kept[t.id]), text: `Take seat ${kept[t.id] + 1}, kept for you` }) : null,
            live && !seated && kept[t.id] === undefined ? el("a", { class: "button secondary", href: `/tables/${t.id}`, text: "Open" }) : null,
            live && seated && t.status === "running" && !away ? el("button", { class: "secondary", onclick: () => mineCall("DELETE", `/api/tables/${t.id}/seats/${t.seat}`), text: "Leave (a bot plays)" }) : null,
            live && t.host ? el("button", { class: "secondary danger", onclick: () => closeTable(t), text: "Close" }) : null,
            ["over", "closed", "expired"].includes(t.status) ? el("a", { href: `/tables/${t.id}/replay`, text: "replay" }) : null));
      }) : [el("li", { class: "muted", text: "None yet: Play now, or create a table below." })]));
    }

    async function takeKept(tableId, seat) {
      try {
        await api("POST", `/api/tables/${tableId}/seats/${seat}`, {});
        remember(tableId);
        location.href = `/tables/${tableId}`;
      } catch (error) { failed(notice, error); }
    }

    async function mineCall(method, path) {
      try { await api(method, path); } catch (error) { failed(notice, error); }
      drawMine();
    }

    async function closeTable(t) {
      if (!window.confirm(`Close this ${t.title} table? The game ends for everyone at it; its record is kept.`)) return;
      mineCall("POST", `/api/tables/${t.id}/close`);
    }

    async function refresh() {
      try {
        for (const status of ["open", "running", "over"]) {
          const list = document.getElementById(`tables-${status}`);
          const found = (await api("GET", `/api/tables?status=${status}&limit=20`)).tables;
          list.replaceChildren(...(found.length ? found.map((t) => el("li", {},
            el("strong", { text: t.title }), ` · ${plural(t.num_players, "player")} · ${timerWords(t)} · `,
            seatsLine(t), " · ",
            status === "over"
              ? el("a", { href: `/tables/${t.id}/replay`, text: "replay" })
              : el("a", { href: `/tables/${t.id}`, text: "watch" })))
            : [el("li", { class: "muted", text: "none" })]));
        }
      } catch (error) { failed(notice, error); }
    }

    form.addEventListener("change", (event) => {
      if (["game", "num_players"].includes(event.target.name)) drawForm();
      else timerHint();
    });
    playForm.addEventListener("change", (event) => { if (event.target.name === "play_game") drawPlayForm(); });
    for (const button of playForm.querySelectorAll("button[data-level]")) {
      button.addEventListener("click", (event) => { event.preventDefault(); playNow(button.dataset.level); });
    }
    playForm.addEventListener("submit", (event) => { event.preventDefault(); playNow("medium"); });
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const game = gameOf(form.elements.game);
      const options = {};
      for (const [name, o] of Object.entries(game.options)) {
        const input = form.elements[`opt_${name}`];
        options[name] = o.type === "bool" ? input.checked : o.type === "str" ? input.value : Number(input.value);
      }
      const n = Number(form.elements.num_players.value);
      const seats = Array.from({ length: n }, (_, i) => form.elements[`seat${i}`].value);
      const timer = form.elements.turn_timer.value;
      try {
        const table = await api("POST", "/api/tables", {
          game: game.id, num_players: n, options, seats, turn_seconds: timer === "default" ? null : Number(timer),
          private: form.elements.private.checked, rated: form.elements.rated.checked,
        });
        remember(table.id);
        notice.className = "hidden";
        created.replaceChildren(el("h3", { text: table.private ? "Private table created" : "Table created" }),
          table.join.length
            ? el("div", {}, el("p", { text: table.private
              ? "Only you see these links: send each player their own (a link seats one player), or take a seat yourself:"
              : "Send each player their link, or take a seat yourself:" }),
              el("ul", { id: "invites" }, table.join.map((j) => el("li", {}, `Seat ${j.seat + 1}: `,
                el("span", { class: "link-box mono", text: location.origin + j.join }), " ",
                el("a", { class: "button", href: j.join, text: "Sit here" })))))
            : el("p", {}, "Only bots play: ", el("a", { href: table.url, text: "watch the table" })));
        created.className = "panel";
        // The next step is on the new links: bring them into view and focus the first.
        const first = created.querySelector("a.button, a");
        created.scrollIntoView({ block: "center" });
        if (first) first.focus({ preventScroll: true });
        refresh();
        drawMine();
      } catch (error) { failed(notice, error); }
    });

    playForm.elements.player_name.value = savedName();
    api("GET", "/api/server").then((facts) => { server = facts; timerHint(); }, () => {});
    api("GET", "/api/games").then((list) => {
      games = list;
      for (const select of [form.elements.game, playForm.elements.play_game]) {
        select.replaceChildren(...games.map((g) => el("option", { value: g.id, text: g.title })));
      }
      document.getElementById("rules-links").replaceChildren(...games.map((g) =>
        el("li", {}, el("a", { href: `/rules/${g.id}`, text: `The rules of ${g.title}` }))));
      drawForm();
      drawPlayForm();
    });
    refresh();
    drawMine();
    setInterval(refresh, 5000);
    setInterval(drawMine, 15000);
  }

  // ------------------------------------------------------------ the join page

  function joinPage() {
    const parts = location.pathname.split("/");
    const id = parts[2];
    const seat = Number(parts[4]);
    const form = document.getElementById("join-form");
    const info = document.getElementById("join-info");
    const notice = document.getElementById("notice");
    form.elements.name.value = savedName();
    if (typeof PotluckAccounts !== "undefined") {
      PotluckAccounts.session().then(({ account }) => {
        if (!account) return;
        form.elements.name.value = account.name;
        form.elements.name.readOnly = true;
        form.elements.name.setAttribute("aria-describedby", "as-account");
        form.elements.name.after(el("span", { id: "as-account", class: "muted", text: " (your account's name: this seat follows you to any device)" }));
      });
    }
    let practice = false;  // a practice table: its player agrees to a deal its creator chose
    api("GET", `/api/tables/${id}`).then((p) => {
      const t = p.table;
      const names = Potluck.seatNames(t);
      practice = Boolean(t.practice);
      if (practice) {
        form.insertBefore(el("label", { class: "practice" }, el("input", { type: "checkbox", name: "practice", required: true }),
          " I agree to play a practice table: its creator chose the deal, so whoever knows the seed can see my cards."),
        form.querySelector("button"));
      }
      info.replaceChildren(...[
        practice ? Potluck.practiceNote(t) : null,
        el("p", { text: `${t.title}, ${plural(t.num_players, "player")}: you are joining as seat ${seat + 1}. ${t.turn_seconds ? `Each move has a ${duration(t.turn_seconds)} timer; then a bot plays your seat until you take it back.` : "There is no turn timer."}` }),
        t.private ? el("p", { class: "muted", text: "A private table: you sit down through the invite link its creator sent you (open that link, then give your name)." }) : null,
        el("ul", {}, t.seats.map((s) => el("li", {}, `Seat ${s.seat + 1}: `, s.free ? el("em", { text: s.seat === seat ? "free (yours to take)" : "free" }) : names[s.seat])))].filter(Boolean));
      document.getElementById("where").textContent = `Join ${t.title}`;
    }, (error) => failed(notice, error));
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const name = form.elements.name.value;
      try {
        const body = practice ? { name, practice: Boolean(form.elements.practice && form.elements.practice.checked) } : { name };
        const joined = await api("POST", `/api/tables/${id}/seats/${seat}`, body);
        if (!form.elements.name.readOnly) saveName(name.trim());
        remember(id);
        localStorage.setItem(`potluck-seat-link-${id}`, joined.seat_link);
        location.href = `/tables/${id}`;
      } catch (error) { failed(notice, error); }
    });
  }

  Potluck.pages.lobby = lobbyPage;
  Potluck.pages.join = joinPage;
  void listOf;
})();
