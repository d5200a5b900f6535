// The table page: a seat's live game over the WebSocket (moves, why a move is not possible,
// the turn's timer, reconnection), a spectator's view, and the creator's seat controls.
// Built on potluck.js.
"use strict";

(() => {
  const {
    el, api, tableIdFromPath, showRules, who, whose, says, seatNumber, render, remember, STATUS, tick, identity,
  } = Potluck;

  function tablePage() {
    const id = tableIdFromPath();
    const root = document.getElementById("screen");
    const notice = document.getElementById("notice");
    const where = document.getElementById("where");
    let payload = null;
    let socket = null;
    let retry = 500;
    let focusAfterMove = null;  // the control that made the last move (it may be gone after)
    const drafts = {};  // what the player typed in the screen's fields, kept across redraws
    root.addEventListener("input", (event) => { if (event.target.name) drafts[event.target.name] = event.target.value; });

    function say(text, kind) {
      notice.textContent = text || "";
      notice.className = text ? `notice ${kind || ""}` : "hidden";
    }

    let busy = false;  // a move is on its way: the seat's controls wait for the answer
    // A move's answer can come back between the two clicks of a double click, and the
    // second click would then land on the next decision's fresh controls: the rest of a
    // multi-click is dropped for a moment after our own move is drawn (single clicks and
    // keys are never dropped).
    const CALM_MS = 500;
    let calmUntil = 0;
    root.addEventListener("click", (event) => {
      if (event.detail > 1 && performance.now() < calmUntil) {
        event.stopImmediatePropagation();
        event.preventDefault();
      }
    }, true);
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
        focusAfterMove = identity(document.activeElement) || "#turn-status";
        lock();
        try {
          say("");
          const answer = await api("POST", `/api/tables/${id}/actions`, { action, decision: payload.decision });
          for (const name of Object.keys(drafts)) delete drafts[name];
          busy = false;
          calmUntil = performance.now() + CALM_MS;
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
      const focused = document.activeElement;
      const inScreen = focused && root.contains(focused);
      const key = (inScreen && identity(focused)) || (busy ? null : focusAfterMove);
      root.classList.remove("busy");
      const t = payload.table;
      where.textContent = `${t.title}${t.private ? ", a private table" : ""}${t.rated ? ", rated" : ""}: ${STATUS[t.status] || t.status}`;
      document.title = `${t.title} · Potluck`;
      render(root, payload, ctx);
      for (const [name, text] of Object.entries(drafts)) {
        const field = root.querySelector(`[name="${CSS.escape(name)}"]`);
        if (field && "value" in field) field.value = text;
      }
      if (key && !busy) {
        const again = root.querySelector(key);
        const target = again && !again.disabled ? again : (inScreen || focusAfterMove ? document.getElementById("turn-status") : null);
        if (target) target.focus({ preventScroll: true });
        focusAfterMove = null;
      }
      tick();
      showRules(t.game, document.getElementById("rules-body"), document.getElementById("rules-link"));
      drawMine(t);
      if (busy) lock();
    }

    // The player's own controls: the seat link, leave or come back; the creator's powers.
    function drawMine(t) {
      const mine = document.getElementById("mine");
      // A name half typed into an invite box survives a redraw (a table update may
      // arrive while the creator types): keep each box's text and which one had focus.
      const typed = Object.fromEntries([...mine.querySelectorAll("input[name^=invite_account_]")].map((box) => [box.name, box.value]));
      const focused = document.activeElement instanceof HTMLInputElement && mine.contains(document.activeElement) ? document.activeElement.name : null;
      mine.replaceChildren();
      if (payload.seat !== null && payload.seat !== undefined && !payload.outcome && ["open", "running"].includes(t.status)) {
        const seat = t.seats[payload.seat];
        const link = localStorage.getItem(`potluck-seat-link-${id}`);
        mine.append(el("h2", { text: "Your seat" }));
        if (link) mine.append(el("p", { class: "muted" }, "Your seat link (open it again to come back, on any device): ",
          el("span", { class: "link-box mono", text: location.origin + link })));
        mine.append(seat.taken_over
          ? el("button", { id: "come-back", onclick: () => seatCall("POST", `/api/tables/${id}/seats/${payload.seat}/return`), text: "Take my seat back" })
          : el("button", { class: "secondary", id: "leave", onclick: () => seatCall("DELETE", `/api/tables/${id}/seats/${payload.seat}`), text: "Leave (a bot plays for me)" }));
      }
      if (host && !payload.outcome && ["open", "running"].includes(t.status)) mine.append(hostPanel(t));
      for (const box of mine.querySelectorAll("input[name^=invite_account_]")) {
        if (typed[box.name]) box.value = typed[box.name];
        if (box.name === focused) box.focus();
      }
      // A finished game: the rating it moved, and "Play again" (accounts.js)
      if (payload.outcome && typeof PotluckAccounts !== "undefined") mine.append(...PotluckAccounts.afterGame(payload, draw));
      mine.className = mine.childNodes.length ? "panel" : "hidden";
    }

    // The creator's controls: replace an absent player by a bot; a new invite link for a
    // private table's open seat (the old link stops working).
    function hostPanel(t) {
      const rows = t.seats.filter((s) => s.kind === "human").map((s) => el("li", { "data-seat": s.seat },
        `Seat ${seatNumber(s.seat)}: ${s.free ? "free" : who(payload, s.seat, true)} `,
        s.taken_over === "kicked" ? el("span", { class: "muted", text: "(a bot plays) " }) : null,
        s.taken_over !== "kicked" ? el("button", { class: "secondary kick", onclick: () => hostCall("kick", s.seat), text: "Give the seat to a bot" }) : null,
        t.private && (s.free || s.taken_over === "kicked") ? el("button", { class: "secondary reinvite", onclick: () => hostCall("invite", s.seat), text: "New invite link" }) : null,
        s.free && !s.kept_for ? inviteByName(s.seat) : null));
      return el("div", { id: "host" }, el("h2", { text: "Your table" }),
        el("p", { class: "muted", text: "You created this table: you may give an absent player's seat to a bot" + (t.private ? ", send a seat a new invite link" : "") + " or close the table." }),
        el("ul", {}, rows), el("div", { id: "new-invite" }),
        el("button", { class: "secondary danger", id: "close-table", onclick: closeTable, text: "Close the table (the game ends for everyone)" }));
    }

    // An invitation by name: the seat is kept for that account (only they may take it;
    // it is in their Your tables on any device).
    function inviteByName(seat) {
      const input = el("input", { name: `invite_account_${seat}`, maxlength: "40", placeholder: "an account's name", "aria-label": `Seat ${seatNumber(seat)}: invite an account by name` });
      return el("form", { class: "inline-form invite-by-name", onsubmit: async (event) => {
        event.preventDefault();
        try {
          await api("POST", `/api/tables/${id}/seats/${seat}/invite`, { account: input.value.trim() });
          draw(await api("GET", `/api/tables/${id}`));
        } catch (error) { say(error.message, "error"); }
      } }, input, el("button", { type: "submit", class: "secondary", text: "Keep it for them" }));
    }

    async function closeTable() {
      if (!window.confirm("Close this table? The game ends for everyone at it; its record and replay are kept.")) return;
      try { draw(await api("POST", `/api/tables/${id}/close`)); } catch (error) { say(error.message, "error"); }
    }

    async function hostCall(what, seat) {
      try {
        const answer = await api("POST", `/api/tables/${id}/seats/${seat}/${what}`);
        if (what === "invite") {
          document.getElementById("new-invite").replaceChildren(el("p", {}, `Seat ${seatNumber(seat)}'s new invite link (send it only to that player): `,
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

    api("GET", `/api/tables/${id}`).then((first) => {
      host = Boolean(first.host);
      if (first.seat !== null || host) remember(id);
      draw(first);
      // A player who just sat down (Play now, a join page, a seat link) starts at the turn
      // line: a screen reader says whose move it is, and Tab goes on to the moves.
      const status = document.getElementById("turn-status");
      if (first.seat !== null && status && (!document.activeElement || document.activeElement === document.body)) {
        status.focus({ preventScroll: true });
      }
    }, (error) => say(error.message, "error"));
    connect();
    setInterval(tick, 250);
  }


  Potluck.pages.table = tablePage;
})();
